import type { Db } from '../../../../shared/db/client.ts';
import { TEST_CHAIN_ID } from '../../../../shared/config.ts';
import { formatUnits, parseAmount } from '../domain/amount.ts';
import { faucetLegs } from '../domain/posting-rules.ts';
import { findAsset, findWallet, walletBalances } from './directory-store.ts';
import { applyLegs } from './ledger-store.ts';

export class FaucetRefused extends Error {
  override name = 'FaucetRefused';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Largest single faucet grant, so a typo cannot mint a trillion test dollars. */
export const FAUCET_MAX_UNITS_WHOLE = 1_000_000n;

/**
 * The test-chain faucet. Refused on the live chain by construction: there is no faucet account
 * on 151 and this check comes first. Issuance is an ordinary balanced posting.
 */
export async function fundWallet(db: Db, input: { userId: string; chainId: string; asset: string; amount: string }) {
  if (input.chainId !== TEST_CHAIN_ID) throw new FaucetRefused(403, 'live_chain_refused', 'The faucet exists only on the test chain (153); live money cannot be minted');
  const wallet = await findWallet(db, input.userId, input.chainId);
  if (!wallet) throw new FaucetRefused(409, 'CHAIN_ACCOUNT_REQUIRED', `User ${input.userId} has no chain account on chain ${input.chainId}; activate it first`);
  const asset = await findAsset(db, input.chainId, input.asset);
  if (!asset) throw new FaucetRefused(404, 'not_found', `No asset "${input.asset}" on chain ${input.chainId}`);
  const parsed = parseAmount(input.amount, asset.decimals);
  if (!parsed.ok) throw new FaucetRefused(400, 'invalid_params', `amount: ${parsed.reason}`);
  if (parsed.units > FAUCET_MAX_UNITS_WHOLE * 10n ** BigInt(asset.decimals)) throw new FaucetRefused(400, 'invalid_params', `amount: at most ${FAUCET_MAX_UNITS_WHOLE} per grant`);
  const transactionId = await db.transaction((tx) => applyLegs(tx as unknown as Db, { kind: 'faucet', chainId: input.chainId, memo: 'faucet' }, faucetLegs(wallet.id, asset.id, parsed.units)));
  const [balance] = await walletBalances(db, wallet.id, [asset.id]);
  return {
    chain_id: input.chainId,
    wallet_address: wallet.address,
    asset_id: asset.id,
    symbol: asset.symbol,
    funded: formatUnits(parsed.units, asset.decimals),
    balance: formatUnits(balance?.units ?? 0n, asset.decimals),
    ledger_transaction_id: transactionId,
  };
}
