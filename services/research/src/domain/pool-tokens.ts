/**
 * The coins a pool holds, from its DefiLlama symbol (`DAI-USDC-USDT`, `USDC+fxUSD`, `SYRUPUSDC`).
 * Upper-cased so matching against the stablecoins feed is case-insensitive.
 */
export function poolTokens(symbol: string): string[] {
  return symbol
    .split(/[-+/ ]+/)
    .map((t) => t.trim().toUpperCase())
    .filter(Boolean);
}

/**
 * The `assets` filter: a pool matches when one of its tokens is the asset or a wrapper of it
 * (`SYRUPUSDC`, `STEAKUSDC` ⇒ USDC). Short assets (≤ 2 chars) must match exactly so `US` does not
 * match every dollar coin.
 */
export function poolMatchesAssets(tokens: readonly string[], assets: readonly string[]): boolean {
  for (const asset of assets) {
    for (const token of tokens) {
      if (token === asset) return true;
      if (asset.length > 2 && token.includes(asset)) return true;
    }
  }
  return false;
}
