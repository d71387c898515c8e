import { CliUsageError, type CliCommand, type CliDeps } from '../../../shared/cli.ts';
import { LIVE_CHAIN_ID, TEST_CHAIN_ID } from '../../../shared/config.ts';
import type { DbHandle } from '../../../shared/db/client.ts';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { parseCommandArgs, requiredFlag } from '../../../shared/cli-args.ts';
import { createAccountService } from './account-service.ts';
import { AccountError } from './domain/account-errors.ts';
import { createTokenMinter } from './domain/token-minter.ts';
import { ensureActiveSigningKey } from './store/signing-key-store.ts';

async function withAccounts<T>(deps: CliDeps, fn: (accounts: ReturnType<typeof createAccountService>, db: DbHandle) => Promise<T>): Promise<T> {
  const db = await deps.openDb();
  try {
    const minter = createTokenMinter({ issuer: deps.config.issuer, signingKey: await ensureActiveSigningKey(db.db) });
    const resourceScopes = new Map(
      (Object.keys(RESOURCE_SCOPES) as Array<keyof typeof RESOURCE_SCOPES>).map((s) => [deps.config.services[s].resource, RESOURCE_SCOPES[s]]),
    );
    return await fn(createAccountService({ config: deps.config, db: db.db, minter, resourceScopes }), db);
  } finally {
    await db.close();
  }
}

const usersAdd: CliCommand = {
  name: 'users add',
  usage: 'gatehouse users add --email E --password P [--kyc]',
  summary: 'Create an account (verification level none, or kyc with --kyc).',
  async run(argv, deps) {
    const { values, positionals } = parseCommandArgs(argv, { email: { type: 'string' }, password: { type: 'string' }, kyc: { type: 'boolean' } });
    if (positionals.length) throw new CliUsageError(`Unexpected argument ${positionals[0]}`);
    const email = requiredFlag(values, 'email');
    const password = requiredFlag(values, 'password');
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new CliUsageError(`--email is not an email address: ${email}`);
    if (password.length < 8) throw new CliUsageError('--password must be at least 8 characters');
    return withAccounts(deps, async (accounts) => {
      try {
        const user = await accounts.addUser({ email, password, verificationLevel: values.kyc ? 'kyc' : 'none' });
        deps.stdout.write(`Created ${user.email} (id ${user.id}, verification ${user.verificationLevel}).\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof AccountError)) throw err;
        deps.stderr.write(`${err.message}\n`);
        return 1;
      }
    });
  },
};

const keysCreate: CliCommand = {
  name: 'keys create',
  usage: 'gatehouse keys create --email E --kind connector|personal [--chains 153,151] [--name NAME]',
  summary: 'Mint an API key for an account and print it once.',
  async run(argv, deps) {
    const { values, positionals } = parseCommandArgs(argv, { email: { type: 'string' }, kind: { type: 'string' }, chains: { type: 'string' }, name: { type: 'string' } });
    if (positionals.length) throw new CliUsageError(`Unexpected argument ${positionals[0]}`);
    const email = requiredFlag(values, 'email');
    const kind = requiredFlag(values, 'kind');
    if (kind !== 'connector' && kind !== 'personal') throw new CliUsageError(`--kind must be connector or personal, not ${kind}`);
    const chainsText = values.chains;
    const chains = chainsText?.split(',').map((c) => c.trim());
    for (const chain of chains ?? []) {
      if (chain !== TEST_CHAIN_ID && chain !== LIVE_CHAIN_ID) throw new CliUsageError(`--chains takes ${TEST_CHAIN_ID} and/or ${LIVE_CHAIN_ID}, not "${chain}"`);
    }
    return withAccounts(deps, async (accounts) => {
      const user = await accounts.findUserByEmail(email);
      if (!user) {
        deps.stderr.write(`No account with email ${email}\n`);
        return 1;
      }
      try {
        const { apiKey, record } = await accounts.createApiKey(user, {
          serviceName: values.name ?? `cli-${kind}`,
          kind,
          ...(chains ? { allowedChains: chains } : {}),
        });
        deps.stderr.write(`Created ${record.kind} key ${record.id} for ${user.email} on chains ${record.allowedChains.join(',')}. It is shown once:\n`);
        deps.stdout.write(`${apiKey}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof AccountError)) throw err;
        deps.stderr.write(`Refused (${err.code}): ${err.message}\n`);
        return 1;
      }
    });
  },
};

export const commands: CliCommand[] = [usersAdd, keysCreate];
