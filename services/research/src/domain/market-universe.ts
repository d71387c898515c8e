import { normalizeCategory, type NormalizedCategory } from './category.ts';
import { chainKeyOfPool, SUPPORTED_CHAINS, type ChainKey } from './chains.ts';
import { assessDepegCounterparty, type DepegAssessment } from './depeg-counterparty.ts';
import { scoreLiquidity, type LiquidityResult } from './liquidity.ts';
import type { PeggedAssetRecord, PoolRecord, ProtocolRecord } from './market-snapshot.ts';
import { buildPegIndex, type PegIndex } from './peg-index.ts';
import type { PoolTable } from './pool-table.ts';
import { poolTokens } from './pool-tokens.ts';
import type { ProtocolPrior, ProtocolPriors } from './protocol-priors.ts';
import { scoreProtocolRisk, type FactorResult } from './protocol-risk.ts';
import { apyBreakdown, type ApyBreakdown } from './reward-share.ts';
import { stabilitySignals, type StabilitySignals } from './stability.ts';
import { scoreYieldQuality } from './yield-quality.ts';

/**
 * One in-scope pool with everything that does not depend on the request: four of the five
 * factors, category, reward share, stability. The universe stores these column-wise and builds
 * this object on demand for the rows an answer returns (`MarketUniverse.entry`).
 */
export interface UniverseEntry {
  readonly pool: PoolRecord;
  readonly chain: ChainKey;
  readonly tokens: readonly string[];
  /** Upper-cased tokens of the symbol, for the `assets` filter. */
  readonly protocolName: string;
  readonly category: NormalizedCategory;
  readonly categoryRaw: string | null;
  readonly apy: ApyBreakdown;
  readonly protocolRisk: FactorResult;
  /** Scores only: rationales are rebuilt by `explainEntry` for the few rows an answer returns, to keep a 20k-pool universe small. */
  readonly depegScore: number;
  readonly liquidityScore: number;
  readonly liquidityConfidence: LiquidityResult['confidence'];
  readonly yieldQualityScore: number;
  readonly protocolMeta: ProtocolRecord | undefined;
  readonly pegIndex: PegIndex | null;
  readonly stability: StabilitySignals;
  readonly knownIssues: readonly string[];
  /** Min-cap cascade: a hard ceiling on the composite, whatever the weighted blend says. */
  readonly compositeCap: { readonly value: number; readonly reason: string } | null;
}

/**
 * Weighted sums let strong factors hide a fatal one (a 294 % outlier still scores well on
 * protocol and peg). Like Philidor's min-cap cascade, these flags cap the composite instead.
 */
export const OUTLIER_CAP = 69;
export const DEPEG_CAP = 60;
export function compositeCapOf(outlier: boolean, depegScore: number): UniverseEntry['compositeCap'] {
  if (depegScore < 40) return { value: DEPEG_CAP, reason: `composite capped at ${DEPEG_CAP}: a held coin is materially off its peg or unknown` };
  if (outlier) return { value: OUTLIER_CAP, reason: `composite capped at ${OUTLIER_CAP}: DefiLlama flags the pool as a statistical outlier` };
  return null;
}

/** Per-protocol facts shared by every market of a protocol, computed once per snapshot. */
interface ProjectFacts {
  readonly slug: string;
  readonly name: string;
  readonly meta: ProtocolRecord | undefined;
  readonly prior: ProtocolPrior | undefined;
  readonly categoryRaw: string | null;
  readonly protocolRisk: FactorResult;
  readonly knownIssues: readonly string[];
  readonly change1d: number | null;
}

const CATEGORY_CODES: readonly NormalizedCategory[] = ['lending', 'rwa', 'other'];
const CONFIDENCE_CODES: readonly (LiquidityResult['confidence'])[] = [null, 'low', 'medium', 'high'];
const CHAIN_CODES: readonly ChainKey[] = SUPPORTED_CHAINS;
const NONE = 0xffffffff;

/**
 * The scored universe, column-wise: one row per in-scope pool, typed arrays for every number and
 * small code, row → pool-table index for the rest. `list_yields` scans the columns without
 * allocating; a full `UniverseEntry` object is only built (`entry(i)`) for rows an answer returns.
 */
export class MarketUniverse {
  readonly size: number;
  readonly protocols: ReadonlyMap<string, ProtocolRecord>;
  readonly priors: ProtocolPriors;
  readonly pegsAvailable: boolean;
  readonly protocolsAvailable: boolean;
  readonly pegIndex: PegIndex | null;
  /** Row → PoolTable index. */
  readonly poolRow: Uint32Array;
  /** Row → index into SUPPORTED_CHAINS. */
  readonly chainCode: Uint8Array;
  /** Row → index into ['lending','rwa','other']. */
  readonly categoryCode: Uint8Array;
  /** Row → project (protocol) index; `projectSlug(p)`, `protocolRiskScore[p]`. */
  readonly project: Uint32Array;
  readonly protocolRiskScore: Float64Array;
  readonly tvlUsd: Float64Array;
  /** Gross APY (NaN = unknown). */
  readonly apyTotal: Float64Array;
  /** Reward share 0–1 (NaN = unknowable). */
  readonly rewardShare: Float64Array;
  readonly depegScore: Float64Array;
  readonly liquidityScore: Float64Array;
  readonly yieldQualityScore: Float64Array;
  /** Min-cap cascade ceiling on the composite (NaN = none). */
  readonly compositeCap: Float64Array;
  /** Row → upper-cased tokens of its symbol (one shared array per distinct symbol). */
  readonly tokens: readonly (readonly string[])[];

  private readonly pools: PoolTable;
  private readonly projects: readonly ProjectFacts[];
  private readonly rowById: Map<string, number>;
  private readonly confidenceCode: Uint8Array;
  private readonly capCode: Uint8Array;

  constructor(input: UniverseInputs) {
    const { pools, priors, now } = input;
    this.pools = pools;
    this.priors = priors;
    this.protocols = new Map((input.protocols ?? []).map((p) => [p.slug, p]));
    this.pegIndex = input.pegs ? buildPegIndex(input.pegs) : null;
    this.pegsAvailable = this.pegIndex !== null;
    this.protocolsAvailable = input.protocols !== null;

    // Pass 1: which pool rows are in scope. v1 is stablecoin yields on three chains: DefiLlama's
    // flag decides the universe, the stablecoins feed (below) decides how safe each coin is.
    const chainByIntern = new Map<number, number>();
    const inScope: number[] = [];
    const chainOfRow: number[] = [];
    for (let i = 0; i < pools.length; i++) {
      if (!pools.stablecoin(i)) continue;
      const k = pools.stringIndex('chain', i);
      let c = chainByIntern.get(k);
      if (c === undefined) {
        const key = chainKeyOfPool(pools.stringAt(k) ?? '');
        c = key ? CHAIN_CODES.indexOf(key) : -1;
        chainByIntern.set(k, c);
      }
      if (c < 0) continue;
      inScope.push(i);
      chainOfRow.push(c);
    }
    const n = inScope.length;
    this.size = n;
    this.poolRow = Uint32Array.from(inScope);
    this.chainCode = Uint8Array.from(chainOfRow);
    this.categoryCode = new Uint8Array(n);
    this.project = new Uint32Array(n);
    this.tvlUsd = new Float64Array(n);
    this.apyTotal = new Float64Array(n);
    this.rewardShare = new Float64Array(n);
    this.depegScore = new Float64Array(n);
    this.liquidityScore = new Float64Array(n);
    this.yieldQualityScore = new Float64Array(n);
    this.compositeCap = new Float64Array(n);
    this.confidenceCode = new Uint8Array(n);
    this.capCode = new Uint8Array(n);
    const tokens: (readonly string[])[] = new Array(n);
    this.rowById = new Map();

    const projects: ProjectFacts[] = [];
    const projectByIntern = new Map<number, number>();
    const tokensBySymbol = new Map<number, readonly string[]>();
    const riskScores: number[] = [];
    for (let row = 0; row < n; row++) {
      const i = inScope[row]!;
      const projectKey = pools.stringIndex('project', i);
      let p = projectByIntern.get(projectKey);
      if (p === undefined) {
        const slug = pools.stringAt(projectKey)!;
        const meta = this.protocols.get(slug);
        const prior = priors.get(slug);
        const protocolRisk = scoreProtocolRisk(meta, prior, now);
        p = projects.length;
        projects.push({ slug, name: meta?.name ?? prior?.name ?? slug, meta, prior, categoryRaw: meta?.category ?? null, protocolRisk, knownIssues: prior?.knownIssues ?? [], change1d: meta?.change_1d ?? null });
        riskScores.push(protocolRisk.score);
        projectByIntern.set(projectKey, p);
      }
      const facts = projects[p]!;
      const symbolKey = pools.stringIndex('symbol', i);
      let toks = tokensBySymbol.get(symbolKey);
      if (!toks) {
        toks = poolTokens(pools.stringAt(symbolKey) ?? '');
        tokensBySymbol.set(symbolKey, toks);
      }
      // The scoring functions take a PoolRecord: build one, score it, drop it.
      const pool = pools.record(i);
      const category = normalizeCategory({ project: facts.slug, symbol: pool.symbol, poolMeta: pool.poolMeta, categoryRaw: facts.categoryRaw, override: facts.prior?.categoryOverride });
      const apy = apyBreakdown(pool.apyBase, pool.apyReward, pool.apy);
      const depeg = assessDepegCounterparty(toks, this.pegIndex, category === 'rwa');
      const liquidity = scoreLiquidity(pool, facts.meta, category === 'lending');
      const cap = compositeCapOf(pool.outlier === true, depeg.score);
      this.categoryCode[row] = CATEGORY_CODES.indexOf(category);
      this.project[row] = p;
      this.tvlUsd[row] = pool.tvlUsd ?? NaN;
      this.apyTotal[row] = apy.total ?? NaN;
      this.rewardShare[row] = apy.rewardShare ?? NaN;
      this.depegScore[row] = depeg.score;
      this.liquidityScore[row] = liquidity.score;
      this.confidenceCode[row] = CONFIDENCE_CODES.indexOf(liquidity.confidence);
      this.yieldQualityScore[row] = scoreYieldQuality(pool, apy.rewardShare).score;
      this.compositeCap[row] = cap ? cap.value : NaN;
      this.capCode[row] = cap === null ? 0 : cap.value === DEPEG_CAP ? 1 : 2;
      tokens[row] = toks;
      this.rowById.set(pool.pool, row);
    }
    this.tokens = tokens;
    this.projects = projects;
    this.protocolRiskScore = Float64Array.from(riskScores);
  }

  /** Pool UUID of a row. */
  id(row: number): string {
    return this.pools.id(this.poolRow[row]!);
  }
  projectSlug(project: number): string {
    return this.projects[project]!.slug;
  }
  /** The project index of a protocol slug, or -1 when no in-scope market has it. */
  projectIndex(slug: string): number {
    return this.projects.findIndex((p) => p.slug === slug);
  }
  rowOf(id: string): number {
    return this.rowById.get(id) ?? NONE;
  }

  /** Everything about one row as a plain object (built on demand; same values the build scored). */
  entry(row: number): UniverseEntry {
    const pool = this.pools.record(this.poolRow[row]!);
    const facts = this.projects[this.project[row]!]!;
    const cap = this.capCode[row]!;
    return {
      pool,
      chain: CHAIN_CODES[this.chainCode[row]!]!,
      tokens: this.tokens[row]!,
      protocolName: facts.name,
      category: CATEGORY_CODES[this.categoryCode[row]!]!,
      categoryRaw: facts.categoryRaw,
      apy: apyBreakdown(pool.apyBase, pool.apyReward, pool.apy),
      protocolRisk: facts.protocolRisk,
      depegScore: this.depegScore[row]!,
      liquidityScore: this.liquidityScore[row]!,
      liquidityConfidence: CONFIDENCE_CODES[this.confidenceCode[row]!]!,
      yieldQualityScore: this.yieldQualityScore[row]!,
      protocolMeta: facts.meta,
      pegIndex: this.pegIndex,
      stability: stabilitySignals(pool.apyPct1D, facts.change1d),
      knownIssues: facts.knownIssues,
      compositeCap: cap === 0 ? null : compositeCapOf(cap === 2, cap === 1 ? 0 : 100),
    };
  }

  /** The in-scope entry with this pool id, if any. */
  get byId(): { get(id: string): UniverseEntry | undefined; has(id: string): boolean } {
    return {
      get: (id) => {
        const row = this.rowById.get(id);
        return row === undefined ? undefined : this.entry(row);
      },
      has: (id) => this.rowById.has(id),
    };
  }

  /** Every in-scope entry of one protocol (get_protocol_risk: a few rows, built on demand). */
  entriesOf(slug: string): UniverseEntry[] {
    const p = this.projectIndex(slug);
    const out: UniverseEntry[] = [];
    if (p < 0) return out;
    for (let row = 0; row < this.size; row++) if (this.project[row] === p) out.push(this.entry(row));
    return out;
  }
}

export interface UniverseInputs {
  readonly pools: PoolTable;
  readonly pegs: readonly PeggedAssetRecord[] | null;
  readonly protocols: readonly ProtocolRecord[] | null;
  readonly priors: ProtocolPriors;
  readonly now: Date;
}

export function buildMarketUniverse(input: UniverseInputs): MarketUniverse {
  return new MarketUniverse(input);
}

export interface EntryDetails {
  readonly depeg: DepegAssessment;
  readonly liquidity: LiquidityResult;
  readonly yieldQuality: FactorResult;
}

/** Full factor rationales for one entry (same inputs, same scores as the universe build). */
export function explainEntry(entry: UniverseEntry): EntryDetails {
  return {
    depeg: assessDepegCounterparty(entry.tokens, entry.pegIndex, entry.category === 'rwa'),
    liquidity: scoreLiquidity(entry.pool, entry.protocolMeta, entry.category === 'lending'),
    yieldQuality: scoreYieldQuality(entry.pool, entry.apy.rewardShare),
  };
}
