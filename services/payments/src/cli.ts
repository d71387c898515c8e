import { parseCommandArgs } from '../../../shared/cli-args.ts';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../shared/config.ts';
import { CliUsageError, type CliCommand, type CliDeps } from '../../../shared/cli.ts';
import { findUserByEmail } from '../../auth/src/store/user-store.ts';
import { activateChainAccount } from './store/directory-store.ts';
import { FaucetRefused, fundWallet } from './store/faucet.ts';

function options(argv: readonly string[], extra: Record<string, { type: 'string' }>) {
  const { values, positionals } = parseCommandArgs(argv, { email: { type: 'string' }, chain: { type: 'string' }, ...extra });
  if (positionals.length) throw new CliUsageError(`Unexpected argument ${positionals[0]}`);
  return values as Record<string, string | undefined>;
}

async function userIdOf(deps: CliDeps, email: string | undefined, db: Awaited<ReturnType<CliDeps['openDb']>>): Promise<string> {
  if (!email) throw new CliUsageError('--email is required');
  const user = await findUserByEmail(db.db, email);
  if (!user) throw new CliUsageError(`No user with email ${email}`);
  return user.id;
}

function chainOf(value: string | undefined): string {
  const chain = value ?? TEST_CHAIN_ID;
  if (chain !== TEST_CHAIN_ID && chain !== LIVE_CHAIN_ID) throw new CliUsageError(`--chain must be ${TEST_CHAIN_ID} or ${LIVE_CHAIN_ID}`);
  return chain;
}

const walletFund: CliCommand = {
  name: 'wallet fund',
  usage: 'wallet fund --email E --asset USDC --amount 1000 [--chain 153]',
  summary: 'Test-chain faucet: credit a wallet (refused on the live chain).',
  async run(argv, deps) {
    const o = options(argv, { asset: { type: 'string' }, amount: { type: 'string' } });
    const chainId = chainOf(o.chain);
    if (!o.asset || !o.amount) throw new CliUsageError('--asset and --amount are required');
    if (chainId !== TEST_CHAIN_ID) {
      deps.stderr.write(`Refused: the faucet exists only on the test chain (${TEST_CHAIN_ID}); live money cannot be minted.\n`);
      return 2;
    }
    const db = await deps.openDb();
    try {
      const userId = await userIdOf(deps, o.email, db);
      const funded = await fundWallet(db.db, { userId, chainId, asset: o.asset, amount: o.amount });
      deps.stdout.write(`Funded ${funded.funded} ${funded.symbol} to ${funded.wallet_address} on chain ${chainId}; balance ${funded.balance} ${funded.symbol}.\n`);
      return 0;
    } catch (err) {
      if (err instanceof FaucetRefused) {
        deps.stderr.write(`${err.code}: ${err.message}${err.code === 'CHAIN_ACCOUNT_REQUIRED' ? ` (npx gatehouse wallet activate --email ${o.email} --chain ${chainId})` : ''}\n`);
        return 1;
      }
      throw err;
    } finally {
      await db.close();
    }
  },
};

const walletActivate: CliCommand = {
  name: 'wallet activate',
  usage: 'wallet activate --email E [--chain 153]',
  summary: "Explicitly activate a person's chain account (wallet) on a chain.",
  async run(argv, deps) {
    const o = options(argv, {});
    const chainId = chainOf(o.chain);
    const db = await deps.openDb();
    try {
      const userId = await userIdOf(deps, o.email, db);
      const { wallet, created } = await activateChainAccount(db.db, { entityKind: 'user', entityId: userId, chainId, displayName: o.email!, createdBy: userId });
      deps.stdout.write(`${created ? 'Activated' : 'Already active'}: ${wallet.address} on chain ${chainId}.\n`);
      return 0;
    } finally {
      await db.close();
    }
  },
};

export const commands: CliCommand[] = [walletFund, walletActivate];
