import type { Logger } from '../../../../shared/log.ts';
import type { ResearchConfig } from '../config.ts';
import { ResearchError } from '../errors.ts';
import type { PeggedAssetRecord, ProtocolRecord, RecordsOf, SourceName, SourceSnapshot } from '../domain/market-snapshot.ts';
import type { PoolTable } from '../domain/pool-table.ts';
import { buildMarketUniverse, type MarketUniverse } from '../domain/market-universe.ts';
import type { ProtocolPriors } from '../domain/protocol-priors.ts';
import type { SnapshotStore } from '../store/snapshot-store.ts';
import type { DefillamaClient, FetchedSource } from '../upstream/defillama-client.ts';
import { parsePoolsResponse, parsePoolsStream, parseProtocolsResponse, parseStablecoinsResponse, poolsResponse, protocolsResponse, stablecoinsResponse } from '../upstream/defillama-records.ts';

interface SourceState {
  snapshot: SourceSnapshot | null;
  /** Last time a request was answered from this source (health `lastSuccess`: updates on cache hits too). */
  lastServedAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
  /** The newest attempt failed: we are serving an older snapshot. */
  failing: boolean;
  inflight: Promise<void> | null;
}

export interface SourceRead<R extends { readonly length: number }> {
  readonly snapshot: SourceSnapshot<R> | null;
  readonly warnings: string[];
  /** Serving last-good data because the newest fetch failed. */
  readonly fallback: boolean;
}

export interface MarketRead {
  readonly universe: MarketUniverse;
  readonly yields: SourceSnapshot<PoolTable>;
  readonly pegs: SourceSnapshot<readonly PeggedAssetRecord[]> | null;
  readonly protocols: SourceSnapshot<readonly ProtocolRecord[]> | null;
  readonly warnings: string[];
  readonly degraded: boolean;
}

export interface SourceStatus {
  readonly source: SourceName;
  readonly lastSuccess: string | null;
  readonly lastFetchedAt: string | null;
  readonly dataVintage: string | null;
  readonly origin: 'fetch' | 'import' | null;
  readonly records: number;
  readonly lastError: string | null;
  readonly failing: boolean;
}

export interface MarketDataOptions {
  readonly config: ResearchConfig;
  readonly client: DefillamaClient;
  readonly store: SnapshotStore;
  readonly priors: ProtocolPriors;
  readonly logger: Logger;
  readonly now?: () => Date;
}

const PARSERS = { 'defillama:yields': parsePoolsResponse, 'defillama:pegs': parseStablecoinsResponse, 'defillama:protocols': parseProtocolsResponse } as const;
async function* oneChunk(text: string): AsyncIterable<string> {
  yield text;
}

/** Raw API shape as objects, for `research export` only (a CLI, not the server's steady state). */
const SERIALIZERS = {
  'defillama:yields': (r: unknown) => poolsResponse(r as PoolTable),
  'defillama:pegs': (r: unknown) => stablecoinsResponse(r as PeggedAssetRecord[]),
  'defillama:protocols': (r: unknown) => protocolsResponse(r as ProtocolRecord[]),
} as const;

/**
 * Raw API shape as one JSON string, for persistence. The pools table writes itself a slice at a
 * time, so saving a 20k-pool snapshot never builds an object copy of it; the string is handed to
 * Postgres and dropped.
 */
function payloadJson(source: SourceName, records: unknown): string {
  return source === 'defillama:yields' ? (records as PoolTable).toResponseJson() : JSON.stringify(SERIALIZERS[source](records));
}

const ago = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} minutes` : `${(ms / 3_600_000).toFixed(1)} hours`);

/**
 * The cache in front of DefiLlama: TTL per source, revalidation of stale-vintage hits, a
 * kill switch, and Postgres as the shared last-good store. Every read path (tools, health's idle
 * refresh) goes through `read`, so there is one place that decides when to fetch.
 */
export class MarketData {
  private readonly state = new Map<SourceName, SourceState>();
  private universeKey: unknown[] = [];
  private universe: MarketUniverse | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: MarketDataOptions) {
    this.now = options.now ?? (() => new Date());
  }

  private stateOf(source: SourceName): SourceState {
    let s = this.state.get(source);
    if (!s) {
      s = { snapshot: null, lastServedAt: null, lastAttemptAt: null, lastError: null, failing: false, inflight: null };
      this.state.set(source, s);
    }
    return s;
  }

  private ttlMs(source: SourceName): number {
    const t = this.options.config.cacheTtlSeconds;
    return 1000 * (source === 'defillama:yields' ? t.yields : source === 'defillama:pegs' ? t.pegs : t.protocols);
  }

  private async loadPersisted(source: SourceName): Promise<SourceSnapshot | null> {
    const row = await this.options.store.load(source);
    if (!row) return null;
    // Pools are streamed out of the text one record at a time (the parsed tree of a large
    // universe would cost several times the text, exactly when a restart must stay small).
    const parsed = source === 'defillama:yields' ? await parsePoolsStream(oneChunk(row.payloadJson)) : PARSERS[source](JSON.parse(row.payloadJson));
    return { source, records: parsed.records, asOf: row.asOf, fetchedAt: row.fetchedAt, origin: row.origin };
  }

  private async fetchUpstream(source: SourceName): Promise<void> {
    const s = this.stateOf(source);
    s.lastAttemptAt = this.now();
    try {
      const c = this.options.client;
      const fetched: FetchedSource<{ readonly length: number }> = source === 'defillama:yields' ? await c.fetchPools() : source === 'defillama:pegs' ? await c.fetchPegs() : await c.fetchProtocols();
      const snapshot: SourceSnapshot = { source, records: fetched.records, asOf: fetched.asOf, fetchedAt: this.now(), origin: 'fetch' };
      s.snapshot = snapshot;
      s.failing = false;
      s.lastError = null;
      if (fetched.rejected) this.options.logger.warn({ source, rejected: fetched.rejected }, 'dropped malformed upstream records');
      await this.options.store
        .save({ source, asOf: snapshot.asOf, fetchedAt: snapshot.fetchedAt, origin: 'fetch', recordCount: snapshot.records.length, payloadJson: payloadJson(source, snapshot.records) })
        .catch((err) => this.options.logger.error({ err, source }, 'could not persist snapshot'));
    } catch (err) {
      s.failing = true;
      s.lastError = err instanceof Error ? err.message : String(err);
      this.options.logger.warn({ source, reason: s.lastError }, 'upstream fetch failed');
    }
  }

  /**
   * One source. Fetches when there is nothing, when the TTL has passed, or when the hit's
   * vintage is past YH_STALE_WARN_SECONDS (seed: revalidate instead of serving only the old
   * entry) — at most once per YH_REVALIDATE_MIN_INTERVAL_SECONDS after an attempt, so a down or
   * stale upstream is not hammered. A sibling replica's newer row in Postgres is adopted first.
   */
  async read<S extends SourceName>(source: S, options: { force?: boolean } = {}): Promise<SourceRead<RecordsOf<S>>> {
    const s = this.stateOf(source);
    const { config } = this.options;
    if (!s.snapshot) s.snapshot = await this.loadPersisted(source).catch(() => null);
    const now = this.now().getTime();
    const due = () => {
      if (!s.snapshot) return true;
      if (options.force) return true;
      const sinceAttempt = s.lastAttemptAt ? now - s.lastAttemptAt.getTime() : Infinity;
      if (sinceAttempt < config.revalidateMinIntervalSeconds * 1000) return false;
      if (now - s.snapshot.fetchedAt.getTime() >= this.ttlMs(source)) return true;
      return s.snapshot.asOf !== null && now - s.snapshot.asOf.getTime() >= config.staleWarnSeconds * 1000;
    };
    if (!config.upstreamDisabled && due()) {
      const stored = await this.options.store.fetchedAtOf(source).catch(() => null);
      if (stored && s.snapshot && stored > s.snapshot.fetchedAt) s.snapshot = (await this.loadPersisted(source).catch(() => null)) ?? s.snapshot;
      if (due()) {
        s.inflight ??= this.fetchUpstream(source).finally(() => {
          s.inflight = null;
        });
        await s.inflight;
      }
    }
    const warnings: string[] = [];
    if (!s.snapshot) return { snapshot: null, warnings, fallback: false };
    s.lastServedAt = this.now();
    const age = ago(now - s.snapshot.fetchedAt.getTime());
    if (config.upstreamDisabled) warnings.push(`Upstream fetches are disabled (YH_UPSTREAM_DISABLED); serving the stored ${source} snapshot obtained ${age} ago`);
    else if (s.failing) warnings.push(`${source} upstream unavailable (${s.lastError}); serving the last good snapshot obtained ${age} ago`);
    return { snapshot: s.snapshot as SourceSnapshot<RecordsOf<S>>, warnings, fallback: s.failing && !config.upstreamDisabled };
  }

  /** Yields (required), pegs and protocol-meta (degrade gracefully), and the scored universe built from them. */
  async readMarket(options: { force?: boolean } = {}): Promise<MarketRead> {
    const [yields, pegs, protocols] = await Promise.all([this.read('defillama:yields', options), this.read('defillama:pegs', options), this.read('defillama:protocols', options)]);
    if (!yields.snapshot) {
      throw new ResearchError(
        'UPSTREAM_UNAVAILABLE',
        this.options.config.upstreamDisabled
          ? 'No yields snapshot is stored and upstream fetches are disabled (YH_UPSTREAM_DISABLED). Import one with `npx gatehouse research import`.'
          : `DefiLlama yields are unavailable (${this.stateOf('defillama:yields').lastError ?? 'no response'}) and no snapshot is stored. No data is served rather than made-up data.`,
      );
    }
    const warnings = [...yields.warnings, ...pegs.warnings, ...protocols.warnings];
    if (!pegs.snapshot) warnings.push('Stablecoin prices unavailable: depeg factor scored as unknown for every coin');
    if (!protocols.snapshot) warnings.push('Protocol metadata unavailable: protocol risk uses curated priors only; tvlChange24hPct is null');
    const key = [yields.snapshot, pegs.snapshot, protocols.snapshot];
    if (!this.universe || key.some((k, i) => k !== this.universeKey[i])) {
      this.universe = buildMarketUniverse({
        pools: yields.snapshot.records,
        pegs: pegs.snapshot?.records ?? null,
        protocols: protocols.snapshot?.records ?? null,
        priors: this.options.priors,
        now: this.now(),
      });
      this.universeKey = key;
    }
    return {
      universe: this.universe,
      yields: yields.snapshot,
      pegs: pegs.snapshot,
      protocols: protocols.snapshot,
      warnings,
      degraded: yields.fallback || pegs.fallback || !pegs.snapshot,
    };
  }

  /** Throws VALIDATION_ERROR when a snapshot body has no usable records of its source's shape. */
  validateSnapshot(source: SourceName, body: unknown): number {
    let count: number;
    try {
      count = PARSERS[source](body).records.length;
    } catch (err) {
      throw new ResearchError('VALIDATION_ERROR', `${source}: ${err instanceof Error ? err.message : 'unexpected shape'}`);
    }
    if (count === 0) throw new ResearchError('VALIDATION_ERROR', `${source}: the file holds no usable records`);
    return count;
  }

  /** Stores an imported snapshot (CLI) and adopts it here. */
  async importSnapshot(source: SourceName, body: unknown, asOf: Date | null): Promise<number> {
    this.validateSnapshot(source, body);
    const parsed = PARSERS[source](body);
    const fetchedAt = this.now();
    await this.options.store.save({ source, asOf, fetchedAt, origin: 'import', recordCount: parsed.records.length, payloadJson: payloadJson(source, parsed.records) });
    this.stateOf(source).snapshot = { source, records: parsed.records, asOf, fetchedAt, origin: 'import' };
    return parsed.records.length;
  }

  /** The current snapshot of a source in its raw API shape (for `research export`). */
  async exportSnapshot(source: SourceName): Promise<{ body: unknown; asOf: Date | null } | null> {
    const snap = this.stateOf(source).snapshot ?? (await this.loadPersisted(source));
    if (!snap) return null;
    const body = SERIALIZERS[source](snap.records) as unknown;
    const meta = { _meta: { asOf: snap.asOf?.toISOString() ?? null, exportedAt: this.now().toISOString(), source } };
    return { body: Array.isArray(body) ? body : { ...meta, ...(body as object) }, asOf: snap.asOf };
  }

  status(): SourceStatus[] {
    return (['defillama:yields', 'defillama:pegs', 'defillama:protocols'] as const).map((source) => {
      const s = this.stateOf(source);
      return {
        source,
        lastSuccess: s.lastServedAt?.toISOString() ?? null,
        lastFetchedAt: s.snapshot?.fetchedAt.toISOString() ?? null,
        dataVintage: s.snapshot?.asOf?.toISOString() ?? null,
        origin: s.snapshot?.origin ?? null,
        records: s.snapshot?.records.length ?? 0,
        lastError: s.lastError,
        failing: s.failing,
      };
    });
  }

  /** Oldest yields/pegs vintage held in memory, loading persisted rows if this process has none yet. */
  async marketVintage(): Promise<Date | null> {
    const dates: (Date | null)[] = [];
    for (const source of ['defillama:yields', 'defillama:pegs'] as const) {
      const s = this.stateOf(source);
      if (!s.snapshot) s.snapshot = await this.loadPersisted(source).catch(() => null);
      dates.push(s.snapshot?.asOf ?? null);
    }
    if (dates.some((d) => d === null)) return null;
    return new Date(Math.min(...dates.map((d) => d!.getTime())));
  }
}
