/**
 * v1 chain scope (seed 000 "Chain scope"): Ethereum, Base and Arbitrum only. Keys are our
 * lower-case names; DefiLlama spells them as display names in `pool.chain`.
 */
export const SUPPORTED_CHAINS = ['ethereum', 'base', 'arbitrum'] as const;
export type ChainKey = (typeof SUPPORTED_CHAINS)[number];

const DEFILLAMA_NAME: Record<ChainKey, string> = { ethereum: 'Ethereum', base: 'Base', arbitrum: 'Arbitrum' };
const BY_DEFILLAMA_NAME = new Map<string, ChainKey>(SUPPORTED_CHAINS.map((c) => [DEFILLAMA_NAME[c], c]));

/** The chain key of a DefiLlama `pool.chain`, or null when the pool is out of scope. */
export function chainKeyOfPool(defillamaChain: string): ChainKey | null {
  return BY_DEFILLAMA_NAME.get(defillamaChain) ?? null;
}

export function chainDisplayName(chain: ChainKey): string {
  return DEFILLAMA_NAME[chain];
}

/**
 * `sourceChainKey` accepts the keys plus the seed's aliases (`eth`/`ETH`/`Ethereum`,
 * `arb`/`ARB`/`Arbitrum`, `BASE`). Matching is case-insensitive over that closed set; anything
 * else (blank, `optimism`, `mainnet`) is rejected so no bridge cost is estimated from a guess.
 */
const SOURCE_CHAIN_ALIASES: Record<string, ChainKey> = {
  ethereum: 'ethereum',
  eth: 'ethereum',
  base: 'base',
  arbitrum: 'arbitrum',
  arb: 'arbitrum',
};

export function resolveSourceChainKey(value: string): ChainKey | null {
  return SOURCE_CHAIN_ALIASES[value.trim().toLowerCase()] ?? null;
}

/** `chains`/`chainIds` entries must be exactly a supported key (case-insensitive, trimmed is not enough: blank is an error). */
export function parseChainKey(value: string): ChainKey | null {
  const v = value.trim().toLowerCase();
  return (SUPPORTED_CHAINS as readonly string[]).includes(v) ? (v as ChainKey) : null;
}

/**
 * Round-trip (enter + exit) transaction cost estimates in USD for a simple deposit/withdraw.
 * Deliberately coarse, conservative constants: the score only needs the order of magnitude
 * (mainnet costs matter for a $10k position over 30 days, L2 costs do not).
 */
export const ROUND_TRIP_GAS_USD: Record<ChainKey, number> = { ethereum: 8, base: 0.1, arbitrum: 0.2 };

/**
 * One-way bridge estimate from `sourceChainKey` to the pool's chain: a fixed fee plus a
 * proportional fee, both round-tripped because the position has to come back out.
 */
export function estimateBridgeCostUsd(from: ChainKey, to: ChainKey, notionalUsd: number): number {
  if (from === to) return 0;
  const fixedUsd = from === 'ethereum' || to === 'ethereum' ? 5 : 1;
  const proportional = 0.0005 * notionalUsd;
  return 2 * (fixedUsd + proportional);
}
