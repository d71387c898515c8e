import type { PoolRecord } from './market-snapshot.ts';

/**
 * The yields snapshot held in memory: one compact, column-wise table instead of ~20,000 pool
 * objects. Numbers live in Float64Arrays (NaN = null: upstream values are finite, so NaN is never
 * a real value), repeated strings (chain, project, symbol, poolMeta, ilRisk, exposure, predicted
 * class) are interned once and referenced by index, booleans are bits. Only the fields scoring
 * reads are kept (see PoolRecord). A `PoolRecord` object is built on demand for the few rows a
 * caller needs in full (`record(i)`), never kept.
 *
 * At 20,000 pools this is ~2 MB, against ~60 MB for the equivalent object graph.
 */
export class PoolTable {
  readonly length: number;
  /** Interned strings; index 0 is reserved for null. */
  private readonly strings: readonly string[];
  private readonly ids: readonly string[];
  private readonly str: Record<StrColumn, Uint32Array>;
  private readonly num: Record<NumColumn, Float64Array>;
  /** bit 0 stablecoin, bit 1 outlier known, bit 2 outlier true. */
  private readonly flags: Uint8Array;

  /** @internal use `PoolTable.from` / `PoolTableBuilder`. */
  constructor(parts: { length: number; strings: string[]; ids: string[]; str: Record<StrColumn, Uint32Array>; num: Record<NumColumn, Float64Array>; flags: Uint8Array }) {
    this.length = parts.length;
    this.strings = parts.strings;
    this.ids = parts.ids;
    this.str = parts.str;
    this.num = parts.num;
    this.flags = parts.flags;
  }

  static from(records: Iterable<PoolRecord>): PoolTable {
    const b = new PoolTableBuilder();
    for (const r of records) b.add(r);
    return b.finish();
  }

  id(i: number): string {
    return this.ids[i]!;
  }
  /** Interned string column value (null when absent). Same string instance for equal values. */
  string(column: StrColumn, i: number): string | null {
    const k = this.str[column][i]!;
    return k === 0 ? null : this.strings[k]!;
  }
  /** Intern index of a string column value (0 = null): equal values have equal indexes. */
  stringIndex(column: StrColumn, i: number): number {
    return this.str[column][i]!;
  }
  stringAt(index: number): string | null {
    return index === 0 ? null : this.strings[index]!;
  }
  number(column: NumColumn, i: number): number | null {
    const v = this.num[column][i]!;
    return v !== v ? null : v;
  }
  /** The raw column (NaN = null), for scans that must not allocate. */
  column(column: NumColumn): Float64Array {
    return this.num[column];
  }
  stablecoin(i: number): boolean {
    return (this.flags[i]! & 1) !== 0;
  }
  outlier(i: number): boolean | null {
    const f = this.flags[i]!;
    return f & 2 ? (f & 4) !== 0 : null;
  }

  /** One row as a PoolRecord (a fresh object; callers must not keep many of these). */
  record(i: number): PoolRecord {
    const predictedClass = this.string('predictedClass', i);
    const binnedConfidence = this.number('binnedConfidence', i);
    const hasPredictions = (this.flags[i]! & 8) !== 0;
    return {
      pool: this.ids[i]!,
      chain: this.string('chain', i)!,
      project: this.string('project', i)!,
      symbol: this.string('symbol', i)!,
      tvlUsd: this.number('tvlUsd', i),
      apyBase: this.number('apyBase', i),
      apyReward: this.number('apyReward', i),
      apy: this.number('apy', i),
      apyPct1D: this.number('apyPct1D', i),
      apyPct7D: this.number('apyPct7D', i),
      apyMean30d: this.number('apyMean30d', i),
      stablecoin: this.stablecoin(i),
      ilRisk: this.string('ilRisk', i),
      exposure: this.string('exposure', i),
      poolMeta: this.string('poolMeta', i),
      outlier: this.outlier(i),
      sigma: this.number('sigma', i),
      predictions: hasPredictions ? { predictedClass, binnedConfidence } : null,
    };
  }

  *records(): IterableIterator<PoolRecord> {
    for (let i = 0; i < this.length; i++) yield this.record(i);
  }

  /**
   * `{"status":"success","data":[…]}` as one JSON string, built a slice of rows at a time so no
   * full object copy of the snapshot exists at any point (persistence sends this string as-is).
   */
  toResponseJson(): string {
    const chunks: string[] = [];
    const SLICE = 1000;
    for (let start = 0; start < this.length; start += SLICE) {
      const parts: string[] = [];
      for (let i = start; i < Math.min(this.length, start + SLICE); i++) parts.push(JSON.stringify(this.record(i)));
      chunks.push(parts.join(','));
    }
    return `{"status":"success","data":[${chunks.join(',')}]}`;
  }
}

export const STR_COLUMNS = ['chain', 'project', 'symbol', 'poolMeta', 'ilRisk', 'exposure', 'predictedClass'] as const;
export type StrColumn = (typeof STR_COLUMNS)[number];
export const NUM_COLUMNS = ['tvlUsd', 'apyBase', 'apyReward', 'apy', 'apyPct1D', 'apyPct7D', 'apyMean30d', 'sigma', 'binnedConfidence'] as const;
export type NumColumn = (typeof NUM_COLUMNS)[number];

/** Appends validated records; `finish()` copies the growable columns into exact-size typed arrays. */
export class PoolTableBuilder {
  private n = 0;
  private readonly strings: string[] = [''];
  private readonly intern = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly str = Object.fromEntries(STR_COLUMNS.map((c) => [c, [] as number[]])) as Record<StrColumn, number[]>;
  private readonly num = Object.fromEntries(NUM_COLUMNS.map((c) => [c, [] as number[]])) as Record<NumColumn, number[]>;
  private readonly flags: number[] = [];

  get length(): number {
    return this.n;
  }

  private internOf(s: string | null): number {
    if (s === null) return 0;
    let k = this.intern.get(s);
    if (k === undefined) {
      k = this.strings.length;
      this.strings.push(s);
      this.intern.set(s, k);
    }
    return k;
  }

  add(r: PoolRecord): void {
    this.ids.push(r.pool);
    this.str.chain.push(this.internOf(r.chain));
    this.str.project.push(this.internOf(r.project));
    this.str.symbol.push(this.internOf(r.symbol));
    this.str.poolMeta.push(this.internOf(r.poolMeta));
    this.str.ilRisk.push(this.internOf(r.ilRisk));
    this.str.exposure.push(this.internOf(r.exposure));
    this.str.predictedClass.push(this.internOf(r.predictions?.predictedClass ?? null));
    const n = this.num;
    n.tvlUsd.push(r.tvlUsd ?? NaN);
    n.apyBase.push(r.apyBase ?? NaN);
    n.apyReward.push(r.apyReward ?? NaN);
    n.apy.push(r.apy ?? NaN);
    n.apyPct1D.push(r.apyPct1D ?? NaN);
    n.apyPct7D.push(r.apyPct7D ?? NaN);
    n.apyMean30d.push(r.apyMean30d ?? NaN);
    n.sigma.push(r.sigma ?? NaN);
    n.binnedConfidence.push(r.predictions?.binnedConfidence ?? NaN);
    this.flags.push((r.stablecoin ? 1 : 0) | (r.outlier !== null ? 2 : 0) | (r.outlier === true ? 4 : 0) | (r.predictions ? 8 : 0));
    this.n++;
  }

  finish(): PoolTable {
    const str = Object.fromEntries(STR_COLUMNS.map((c) => [c, Uint32Array.from(this.str[c])])) as Record<StrColumn, Uint32Array>;
    const num = Object.fromEntries(NUM_COLUMNS.map((c) => [c, Float64Array.from(this.num[c])])) as Record<NumColumn, Float64Array>;
    return new PoolTable({ length: this.n, strings: this.strings, ids: this.ids, str, num, flags: Uint8Array.from(this.flags) });
  }
}
