import type { PeggedAssetRecord } from './market-snapshot.ts';

/**
 * Maps a pool token to the stablecoins-feed entry it stands for. DefiLlama's own `stablecoin`
 * flag is a symbol-substring test (MSUSD at $0.35 is "stable"), so depeg risk is judged from
 * the feed's price and peg mechanism of every coin instead — never from that flag alone.
 */
export interface PegIndex {
  resolve(token: string): readonly PeggedAssetRecord[];
}

export function buildPegIndex(assets: readonly PeggedAssetRecord[]): PegIndex {
  const bySymbol = new Map<string, PeggedAssetRecord[]>();
  for (const a of assets) {
    const key = a.symbol.toUpperCase();
    const list = bySymbol.get(key);
    if (list) list.push(a);
    else bySymbol.set(key, [a]);
  }
  // Longest first so `SUSDS` resolves to USDS rather than to a shorter coin it also contains.
  const symbols = [...bySymbol.keys()].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
  const memo = new Map<string, readonly PeggedAssetRecord[]>();

  function lookup(token: string): readonly PeggedAssetRecord[] {
    const exact = bySymbol.get(token);
    if (exact) return exact;
    // Wrappers put their prefix first (s, st, syrup, steak): a suffix match is the stronger signal.
    for (const s of symbols) if (token.endsWith(s)) return bySymbol.get(s)!;
    for (const s of symbols) if (token.includes(s)) return bySymbol.get(s)!;
    return [];
  }

  return {
    resolve(token) {
      let hit = memo.get(token);
      if (!hit) {
        hit = lookup(token);
        memo.set(token, hit);
      }
      return hit;
    },
  };
}
