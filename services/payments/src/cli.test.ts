import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../shared/cli.ts';
import type { DbHandle } from '../../../shared/db/client.ts';
import { runCli } from '../../../test/support/cli-runner.ts';
import { openTestDb } from '../../../test/support/test-db.ts';
import { commands } from './cli.ts';

let db: DbHandle;

const gatehouse = (name: string, argv: string[]) => runCli(db, commands, name, argv);

beforeAll(async () => {
  db = await openTestDb();
  expect((await gatehouse('users add', ['--email', 'fund@example.com', '--password', 'long enough'])).code).toBe(0);
});
afterAll(() => db?.close());

describe('npx gatehouse wallet activate | fund', () => {
  it('funding a walletless account is refused with CHAIN_ACCOUNT_REQUIRED and the activation command', async () => {
    const r = await gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '1000']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('CHAIN_ACCOUNT_REQUIRED');
    expect(r.err).toContain('npx gatehouse wallet activate --email fund@example.com --chain 153');
  });

  it('activation is explicit and idempotent; the faucet then credits the test chain', async () => {
    const first = await gatehouse('wallet activate', ['--email', 'fund@example.com']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Activated: \S+ on chain 153\./);
    const again = await gatehouse('wallet activate', ['--email', 'fund@example.com']);
    expect(again.out).toMatch(/^Already active: /);
    const funded = await gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '1000']);
    expect(funded.code, funded.err).toBe(0);
    expect(funded.out).toContain('balance 1000');
    const more = await gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '2.5']);
    expect(more.out).toContain('balance 1002.5');
  });

  it('the live chain is refused and nothing is credited', async () => {
    const live = await gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '1000', '--chain', '151']);
    expect(live.code).toBe(2);
    expect(live.err).toContain('live money cannot be minted');
    const after = await gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '0.5']);
    expect(after.out).toContain('balance 1003');
  });

  it('bad flags are usage errors naming them', async () => {
    await expect(gatehouse('wallet fund', ['--email', 'fund@example.com', '--chian', '151'])).rejects.toThrow(new CliUsageError('Unknown flag --chian'));
    await expect(gatehouse('wallet fund', ['--email', 'fund@example.com', '--asset', 'USDC', '--amount', '1', '--chain', '1'])).rejects.toBeInstanceOf(CliUsageError);
    await expect(gatehouse('wallet fund', ['--email', 'nobody@example.com', '--asset', 'USDC', '--amount', '1'])).rejects.toThrow(/No user with email/);
  });
});
