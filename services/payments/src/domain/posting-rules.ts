/**
 * Which accounts each settlement moves, as balanced legs. Pure: the store applies them in one
 * transaction and the database's non-negative CHECK decides whether the funds were there.
 */
export type AccountRef =
  | { readonly kind: 'wallet'; readonly walletId: string; readonly assetId: string }
  | { readonly kind: 'escrow' | 'faucet'; readonly assetId: string };

export interface Leg {
  readonly account: AccountRef;
  /** Signed base units: negative leaves the account, positive enters it. */
  readonly amount: bigint;
}

const wallet = (walletId: string, assetId: string): AccountRef => ({ kind: 'wallet', walletId, assetId });
const escrow = (assetId: string): AccountRef => ({ kind: 'escrow', assetId });

/** A send leaves the payer at once and waits in escrow until the recipient accepts it. */
export function sendLegs(fromWalletId: string, assetId: string, units: bigint): Leg[] {
  return [
    { account: wallet(fromWalletId, assetId), amount: -units },
    { account: escrow(assetId), amount: units },
  ];
}

export function acceptLegs(toWalletId: string, assetId: string, units: bigint): Leg[] {
  return [
    { account: escrow(assetId), amount: -units },
    { account: wallet(toWalletId, assetId), amount: units },
  ];
}

/** Leg one of a credit-for-cash swap: the initiator's credit goes into escrow. */
export function swapOpenLegs(initiatorWalletId: string, creditAssetId: string, creditUnits: bigint): Leg[] {
  return [
    { account: wallet(initiatorWalletId, creditAssetId), amount: -creditUnits },
    { account: escrow(creditAssetId), amount: creditUnits },
  ];
}

/** Leg two: the counterparty pays cash to the initiator and receives the escrowed credit. */
export function swapCompleteLegs(swap: {
  initiatorWalletId: string;
  counterpartyWalletId: string;
  creditAssetId: string;
  creditUnits: bigint;
  cashAssetId: string;
  cashUnits: bigint;
}): Leg[] {
  return [
    { account: wallet(swap.counterpartyWalletId, swap.cashAssetId), amount: -swap.cashUnits },
    { account: wallet(swap.initiatorWalletId, swap.cashAssetId), amount: swap.cashUnits },
    { account: escrow(swap.creditAssetId), amount: -swap.creditUnits },
    { account: wallet(swap.counterpartyWalletId, swap.creditAssetId), amount: swap.creditUnits },
  ];
}

/** Test-chain faucet: issuance is a posting like any other, so the ledger still sums to zero. */
export function faucetLegs(walletId: string, assetId: string, units: bigint): Leg[] {
  return [
    { account: { kind: 'faucet', assetId }, amount: -units },
    { account: wallet(walletId, assetId), amount: units },
  ];
}

/** Double entry: every transaction sums to zero per asset. A violation is a programming error. */
export function assertBalanced(legs: readonly Leg[]): void {
  const sums = new Map<string, bigint>();
  for (const leg of legs) sums.set(leg.account.assetId, (sums.get(leg.account.assetId) ?? 0n) + leg.amount);
  for (const [assetId, sum] of sums) if (sum !== 0n) throw new Error(`unbalanced legs for ${assetId}: ${sum}`);
}
