/**
 * Hand-written DefiLlama fixtures (not copies of real records): a few dozen pools across the
 * three supported chains and others, shaped like the real API and seeded with the edge cases the
 * real data shows — a depegged coin flagged stable, null prices, yield-bearing coins above 1,
 * Pendle duplicate LP/PT rows, zero-APY and outlier pools, null apyPct1D.
 */

export const ID = {
  aaveUsdcEth: '0a0a0a0a-0000-4000-8000-000000000001',
  aaveUsdtEth: '0a0a0a0a-0000-4000-8000-000000000002',
  aaveUsdcBase: '0a0a0a0a-0000-4000-8000-000000000003',
  aaveUsdcArb: '0a0a0a0a-0000-4000-8000-000000000004',
  aaveGhoEth: '0a0a0a0a-0000-4000-8000-000000000005',
  compUsdcEth: '0c0c0c0c-0000-4000-8000-000000000001',
  compUsdcBase: '0c0c0c0c-0000-4000-8000-000000000002',
  morphoSteakBase: '0d0d0d0d-0000-4000-8000-000000000001',
  morphoGtBase: '0d0d0d0d-0000-4000-8000-000000000002',
  morphoBbqBase: '0d0d0d0d-0000-4000-8000-000000000003',
  morphoGtUsdtEth: '0d0d0d0d-0000-4000-8000-000000000004',
  mapleSyrupUsdc: '0e0e0e0e-0000-4000-8000-000000000001',
  mapleSyrupUsdt: '0e0e0e0e-0000-4000-8000-000000000002',
  buidlEth: '0f0f0f0f-0000-4000-8000-000000000001',
  pendleLpArb: '10101010-0000-4000-8000-000000000001',
  pendlePtArb: '10101010-0000-4000-8000-000000000002',
  msusdEth: '11111111-0000-4000-8000-000000000001',
  usdyEth: '12121212-0000-4000-8000-000000000001',
  curve3poolEth: '13131313-0000-4000-8000-000000000001',
  concreteOutlierEth: '14141414-0000-4000-8000-000000000001',
  uniZeroEth: '15151515-0000-4000-8000-000000000001',
  rewardOnlyZeroGrossBase: '16161616-0000-4000-8000-000000000001',
  unknownShareArb: '16161616-0000-4000-8000-000000000002',
  eulerJumpArb: '17171717-0000-4000-8000-000000000001',
  tinyVaultBase: '18181818-0000-4000-8000-000000000001',
  usdxEth: '19191919-0000-4000-8000-000000000001',
  usdaiRwaArb: '1a1a1a1a-0000-4000-8000-000000000001',
  nexusInsuranceEth: '1b1b1b1b-0000-4000-8000-000000000001',
  fraxAlgoEth: '1c1c1c1c-0000-4000-8000-000000000001',
  noTvlBase: '1d1d1d1d-0000-4000-8000-000000000001',
  // Out of scope: other chains, not stablecoin.
  kaminoSolana: '20202020-0000-4000-8000-000000000001',
  aaveOptimism: '20202020-0000-4000-8000-000000000002',
  aaveWethEth: '20202020-0000-4000-8000-000000000003',
} as const;

type Pool = Record<string, unknown>;

function pool(p: Partial<Pool> & { pool: string; chain: string; project: string; symbol: string; tvlUsd: number | null }): Pool {
  return {
    apyBase: null,
    apyReward: null,
    apy: null,
    rewardTokens: null,
    apyPct1D: 0,
    apyPct7D: 0,
    apyPct30D: 0,
    stablecoin: true,
    ilRisk: 'no',
    exposure: 'single',
    predictions: { predictedClass: 'Stable/Up', predictedProbability: 80, binnedConfidence: 2 },
    poolMeta: null,
    mu: 4,
    sigma: 0.1,
    count: 400,
    outlier: false,
    underlyingTokens: null,
    il7d: null,
    apyBase7d: null,
    apyMean30d: null,
    volumeUsd1d: null,
    volumeUsd7d: null,
    apyBaseInception: null,
    ...p,
  };
}

export function fixturePools(): Pool[] {
  return [
    pool({ pool: ID.aaveUsdcEth, chain: 'Ethereum', project: 'aave-v3', symbol: 'USDC', tvlUsd: 900_000_000, apyBase: 4.1, apyReward: null, apy: 4.1, apyPct1D: 0.02, apyPct7D: 0.1, apyMean30d: 4.0 }),
    pool({ pool: ID.aaveUsdtEth, chain: 'Ethereum', project: 'aave-v3', symbol: 'USDT', tvlUsd: 500_000_000, apyBase: 3.9, apy: 3.9, apyPct1D: 0, apyPct7D: -0.1, apyMean30d: 3.8 }),
    pool({ pool: ID.aaveUsdcBase, chain: 'Base', project: 'aave-v3', symbol: 'USDC', tvlUsd: 120_000_000, apyBase: 4.6, apyReward: 0.4, apy: 5.0, apyPct1D: -0.05, apyPct7D: 0.2, apyMean30d: 4.8 }),
    pool({ pool: ID.aaveUsdcArb, chain: 'Arbitrum', project: 'aave-v3', symbol: 'USDC', tvlUsd: 80_000_000, apyBase: 4.3, apy: 4.3, apyPct1D: 0.1, apyPct7D: 0.3, apyMean30d: 4.2 }),
    pool({ pool: ID.aaveGhoEth, chain: 'Ethereum', project: 'aave-v3', symbol: 'GHO', tvlUsd: 60_000_000, apyBase: 5.2, apy: 5.2, apyPct1D: 0.0, apyPct7D: 0.4 }),
    pool({ pool: ID.compUsdcEth, chain: 'Ethereum', project: 'compound-v3', symbol: 'USDC', tvlUsd: 300_000_000, apyBase: 3.8, apyReward: 0, apy: 3.8, apyPct1D: 0.01, apyPct7D: 0.05 }),
    pool({ pool: ID.compUsdcBase, chain: 'Base', project: 'compound-v3', symbol: 'USDC', tvlUsd: 40_000_000, apyBase: 3.7, apyReward: 1.2, apy: 4.9, apyPct1D: 0.2, apyPct7D: 0.5 }),
    pool({ pool: ID.morphoSteakBase, chain: 'Base', project: 'morpho-blue', symbol: 'STEAKUSDC', tvlUsd: 200_000_000, apyBase: 5.2, apyReward: 0, apy: 5.2, apyPct1D: 0.05, apyPct7D: 0.3 }),
    pool({ pool: ID.morphoGtBase, chain: 'Base', project: 'morpho-blue', symbol: 'GTUSDC', tvlUsd: 150_000_000, apyBase: 5.6, apyReward: 0, apy: 5.6, apyPct1D: 0.1, apyPct7D: 0.4 }),
    pool({ pool: ID.morphoBbqBase, chain: 'Base', project: 'morpho-blue', symbol: 'BBQUSDC', tvlUsd: 30_000_000, apyBase: 4.5, apyReward: 2.0, apy: 6.5, apyPct1D: 0.3, apyPct7D: 0.8 }),
    pool({ pool: ID.morphoGtUsdtEth, chain: 'Ethereum', project: 'morpho-blue', symbol: 'GTUSDT', tvlUsd: 90_000_000, apyBase: 4.4, apyReward: 0, apy: 4.4 }),
    pool({ pool: ID.mapleSyrupUsdc, chain: 'Ethereum', project: 'maple', symbol: 'USDC', tvlUsd: 2_000_000_000, apyBase: 5.1, apyReward: 0, apy: 5.1, apyPct1D: 0.02, apyPct7D: 0.2, poolMeta: 'Syrup USDC' }),
    pool({ pool: ID.mapleSyrupUsdt, chain: 'Ethereum', project: 'maple', symbol: 'SYRUPUSDT', tvlUsd: 800_000_000, apyBase: 4.9, apyReward: 0, apy: 4.9, poolMeta: null }),
    pool({ pool: ID.buidlEth, chain: 'Ethereum', project: 'blackrock-buidl', symbol: 'BUIDL', tvlUsd: 600_000_000, apyBase: 3.6, apyReward: null, apy: 3.6, apyPct1D: -0.02, apyPct7D: 0, poolMeta: 'Institutional' }),
    pool({ pool: ID.pendleLpArb, chain: 'Arbitrum', project: 'pendle', symbol: 'USDAI', tvlUsd: 50_000_000, apyBase: 1.4, apyReward: 0.05, apy: 1.45, apyPct1D: 0.06, apyPct7D: 0.3, poolMeta: 'For LP | Maturity 15OCT2026' }),
    pool({ pool: ID.pendlePtArb, chain: 'Arbitrum', project: 'pendle', symbol: 'USDAI', tvlUsd: 50_000_000, apyBase: 8.1, apyReward: null, apy: 8.1, apyPct1D: null, apyPct7D: null, poolMeta: 'For buying PT-USDai-15OCT2026', predictions: { predictedClass: null, predictedProbability: null, binnedConfidence: null } }),
    pool({ pool: ID.msusdEth, chain: 'Ethereum', project: 'mainstreet', symbol: 'MSUSD', tvlUsd: 25_000_000, apyBase: 9.0, apy: 9.0, apyPct1D: -0.4, apyPct7D: -1.0 }),
    pool({ pool: ID.usdyEth, chain: 'Ethereum', project: 'ondo-yield-assets', symbol: 'USDY', tvlUsd: 1_100_000_000, apyBase: 3.55, apy: 3.55, poolMeta: 'US Dollar Yield' }),
    pool({ pool: ID.curve3poolEth, chain: 'Ethereum', project: 'curve-dex', symbol: 'DAI-USDC-USDT', tvlUsd: 180_000_000, apyBase: 0.3, apyReward: 0.5, apy: 0.8, exposure: 'multi', apyPct1D: 0, apyPct7D: 0 }),
    pool({ pool: ID.concreteOutlierEth, chain: 'Ethereum', project: 'concrete', symbol: 'USDC', tvlUsd: 12_000_000, apyBase: 294, apy: 294, outlier: true, apyPct1D: 1.2, apyPct7D: 40, sigma: 12, predictions: { predictedClass: 'Down', predictedProbability: 90, binnedConfidence: 3 } }),
    pool({ pool: ID.uniZeroEth, chain: 'Ethereum', project: 'uniswap-v4', symbol: 'USDC-USDT', tvlUsd: 20_000_000, apyBase: 0, apyReward: null, apy: 0, exposure: 'multi', predictions: { predictedClass: null, predictedProbability: null, binnedConfidence: null } }),
    pool({ pool: ID.rewardOnlyZeroGrossBase, chain: 'Base', project: 'aerodrome-v1', symbol: 'USDC-USDBC', tvlUsd: 15_000_000, apyBase: null, apyReward: 3.0, apy: 0, exposure: 'multi' }),
    pool({ pool: ID.unknownShareArb, chain: 'Arbitrum', project: 'dolomite', symbol: 'USDC', tvlUsd: 35_000_000, apyBase: null, apyReward: null, apy: 7.5, apyPct1D: 0.4 }),
    pool({ pool: ID.eulerJumpArb, chain: 'Arbitrum', project: 'euler-v2', symbol: 'USDC', tvlUsd: 45_000_000, apyBase: 11.5, apyReward: 0, apy: 11.5, apyPct1D: 6.2, apyPct7D: 6.5 }),
    pool({ pool: ID.tinyVaultBase, chain: 'Base', project: 'tiny-vault', symbol: 'USDC', tvlUsd: 300_000, apyBase: 12, apy: 12, apyPct1D: 0.5 }),
    pool({ pool: ID.usdxEth, chain: 'Ethereum', project: 'usdx-money', symbol: 'USDX', tvlUsd: 70_000_000, apyBase: 6.0, apy: 6.0 }),
    pool({ pool: ID.usdaiRwaArb, chain: 'Arbitrum', project: 'usd-ai', symbol: 'SUSDAI', tvlUsd: 110_000_000, apyBase: 9.5, apy: 9.5, apyPct1D: 0.1, poolMeta: '30d withdrawal cycle' }),
    pool({ pool: ID.nexusInsuranceEth, chain: 'Ethereum', project: 'nexus-mutual', symbol: 'USDC', tvlUsd: 40_000_000, apyBase: 6.8, apy: 6.8 }),
    pool({ pool: ID.fraxAlgoEth, chain: 'Ethereum', project: 'frax', symbol: 'SFRAX', tvlUsd: 30_000_000, apyBase: 4.8, apy: 4.8 }),
    pool({ pool: ID.noTvlBase, chain: 'Base', project: 'ghost-vault', symbol: 'USDC', tvlUsd: null, apyBase: 4, apy: 4 }),
    pool({ pool: ID.kaminoSolana, chain: 'Solana', project: 'kamino-lend', symbol: 'USDC', tvlUsd: 400_000_000, apyBase: 6, apy: 6 }),
    pool({ pool: ID.aaveOptimism, chain: 'Optimism', project: 'aave-v3', symbol: 'USDC', tvlUsd: 70_000_000, apyBase: 4.5, apy: 4.5 }),
    pool({ pool: ID.aaveWethEth, chain: 'Ethereum', project: 'aave-v3', symbol: 'WETH', tvlUsd: 2_000_000_000, apyBase: 1.9, apy: 1.9, stablecoin: false }),
  ];
}

function asset(id: string, symbol: string, pegMechanism: string, price: number | null, extra: Record<string, unknown> = {}) {
  return { id, name: symbol, symbol, gecko_id: null, pegType: 'peggedUSD', priceSource: 'defillama', pegMechanism, circulating: { peggedUSD: 1e9 }, chains: ['Ethereum'], price, ...extra };
}

export function fixtureStablecoins() {
  return {
    peggedAssets: [
      asset('901', 'USDT', 'fiat-backed', 0.9996),
      asset('902', 'USDC', 'fiat-backed', 0.9998),
      asset('903', 'DAI', 'crypto-backed', 0.9997),
      asset('904', 'USDS', 'crypto-backed', 0.9998),
      asset('905', 'GHO', 'crypto-backed', 0.9985),
      asset('906', 'BUIDL', 'fiat-backed', 1),
      asset('907', 'USDY', 'fiat-backed', 1.142),
      asset('908', 'MSUSD', 'crypto-backed', 0.353),
      asset('909', 'USDX', 'crypto-backed', null),
      asset('910', 'USDAI', 'crypto-backed', 1.0002),
      asset('911', 'FRAX', 'algorithmic', 0.9906),
      asset('912', 'USDBC', 'fiat-backed', 0.9997),
    ],
    chains: [],
  };
}

function protocol(slug: string, name: string, category: string, extra: Record<string, unknown> = {}) {
  return { id: slug, name, slug, category, chains: ['Ethereum'], tvl: 1e9, change_1h: 0, change_1d: -0.5, change_7d: -1, audits: '2', listedAt: 1_650_000_000, url: `https://${slug}.example`, ...extra };
}

export function fixtureProtocols() {
  return [
    protocol('aave-v3', 'Aave V3', 'Lending', { tvl: 16e9, change_1d: -2.28, listedAt: 1_648_776_877 }),
    protocol('compound-v3', 'Compound V3', 'Lending', { tvl: 1.3e9, change_1d: -2.3 }),
    protocol('morpho-blue', 'Morpho', 'Lending', { tvl: 9e9, change_1d: -1.5, listedAt: 1_705_261_273 }),
    protocol('maple', 'Maple', 'Lending', { tvl: 2.9e9, change_1d: -0.98 }),
    protocol('blackrock-buidl', 'BlackRock BUIDL', 'RWA', { audits: '0', tvl: 3.5e9, change_1d: -1.38 }),
    protocol('pendle', 'Pendle', 'Yield', { audits: '2', tvl: 1.2e9, change_1d: 2.1 }),
    protocol('ondo-yield-assets', 'Ondo Yield Assets', 'RWA', { tvl: 2.5e9, change_1d: null }),
    protocol('curve-dex', 'Curve DEX', 'Dexs', { tvl: 1.3e9 }),
    protocol('concrete', 'Concrete', 'Onchain Capital Allocator', { tvl: 1.1e9 }),
    protocol('uniswap-v4', 'Uniswap V4', 'Dexs', { tvl: 1e9 }),
    protocol('euler-v2', 'Euler V2', 'Lending', { tvl: 3.6e8 }),
    protocol('usd-ai', 'USD.AI', 'RWA Lending', { tvl: 2.3e8, change_1d: 0.47 }),
    protocol('nexus-mutual', 'Nexus Mutual', 'Insurance', { tvl: 2e8 }),
    protocol('dolomite', 'Dolomite', 'Lending', { tvl: 3.2e8 }),
    protocol('frax', 'Frax', 'CDP', { tvl: 1.5e8, audits: '1' }),
    protocol('aerodrome-v1', 'Aerodrome V1', 'Dexs', { tvl: 4e8, audits: '0' }),
  ];
}
