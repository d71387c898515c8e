import type { PoolTable } from './pool-table.ts';

/**
 * The records this server reads from DefiLlama, in the upstream field names (see
 * ../shared/reference/defillama-api.md). Only the fields the scoring uses are kept (upstream's
 * mu, count, apyPct30D, predictedProbability, underlyingTokens, rewardTokens, il7d, volumes … are
 * dropped at the edge); everything optional upstream stays nullable here so "absent" never turns
 * into an invented 0. Pools are held column-wise in a PoolTable, not as these objects.
 */

export interface PoolRecord {
  readonly pool: string;
  readonly chain: string;
  readonly project: string;
  readonly symbol: string;
  readonly tvlUsd: number | null;
  readonly apyBase: number | null;
  readonly apyReward: number | null;
  readonly apy: number | null;
  readonly apyPct1D: number | null;
  readonly apyPct7D: number | null;
  readonly apyMean30d: number | null;
  readonly stablecoin: boolean;
  readonly ilRisk: string | null;
  readonly exposure: string | null;
  readonly poolMeta: string | null;
  readonly outlier: boolean | null;
  readonly sigma: number | null;
  readonly predictions: {
    readonly predictedClass: string | null;
    readonly binnedConfidence: number | null;
  } | null;
}

export interface PeggedAssetRecord {
  readonly id: string;
  readonly name: string;
  readonly symbol: string;
  readonly pegType: string | null;
  readonly pegMechanism: string | null;
  readonly price: number | null;
  readonly circulatingUsd: number | null;
  readonly yieldBearing: boolean;
  readonly deprecated: boolean;
}

export interface ProtocolRecord {
  readonly slug: string;
  readonly name: string;
  readonly category: string | null;
  readonly audits: string | null;
  readonly listedAt: number | null;
  readonly tvl: number | null;
  readonly change_1d: number | null;
  readonly change_7d: number | null;
  readonly url: string | null;
  readonly chains: readonly string[];
  readonly rugged: boolean;
}

export type SourceName = 'defillama:yields' | 'defillama:pegs' | 'defillama:protocols';
export const SOURCE_NAMES: readonly SourceName[] = ['defillama:yields', 'defillama:pegs', 'defillama:protocols'];

/** The in-memory form of each source's records: pools column-wise, the two small feeds as arrays. */
export type RecordsOf<S extends SourceName> = S extends 'defillama:yields' ? PoolTable : S extends 'defillama:pegs' ? readonly PeggedAssetRecord[] : readonly ProtocolRecord[];

/** One source's data as held in memory and persisted: records plus when they were true. */
export interface SourceSnapshot<R extends { readonly length: number } = { readonly length: number }> {
  readonly source: SourceName;
  readonly records: R;
  /** Data vintage; null when nothing says how old the data is. */
  readonly asOf: Date | null;
  /** When this process (or a sibling replica, or an import) obtained it. */
  readonly fetchedAt: Date;
  readonly origin: 'fetch' | 'import';
}
