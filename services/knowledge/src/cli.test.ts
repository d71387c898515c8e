import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../shared/cli.ts';
import { sql, type DbHandle } from '../../../shared/db/client.ts';
import { runCli } from '../../../test/support/cli-runner.ts';
import { openTestDb } from '../../../test/support/test-db.ts';
import { commands } from './cli.ts';

let db: DbHandle;
let dir: string;

const gatehouse = (name: string, argv: string[]) => runCli(db, commands, name, argv);

beforeAll(async () => {
  db = await openTestDb();
  dir = mkdtempSync(join(tmpdir(), 'kb-cli-'));
  writeFileSync(join(dir, 'loan.txt'), 'The Borrower shall repay the Loan on the Maturity Date.\n\n"Borrower" means Acme Holdings LLC.');
  writeFileSync(join(dir, 'notes.md'), '# Notes\n\nThe Applicable Margin is 2.50% per annum.');
  expect((await gatehouse('users add', ['--email', 'kb@example.com', '--password', 'long enough'])).code).toBe(0);
});
afterAll(() => db?.close());

describe('npx gatehouse kb ingest', () => {
  it('ingests a folder into the owner’s room with progress on stderr, then dedupes a second run', async () => {
    const first = await gatehouse('kb ingest', [dir, '--room', 'Deals', '--owner', 'kb@example.com']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/^Room "Deals" \(\S+\): 2 indexed, 0 already present, 0 failed;/);
    expect(first.err).toContain('loan.txt');
    const again = await gatehouse('kb ingest', [join(dir, 'loan.txt'), '--room', 'Deals', '--owner', 'kb@example.com']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 indexed, 1 already present, 0 failed');
  });

  it('an unknown owner is refused and nothing is created', async () => {
    const r = await gatehouse('kb ingest', [dir, '--room', 'Other', '--owner', 'nobody@example.com']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('No user with e-mail nobody@example.com');
    expect(await db.rows(sql`select 1 from kb_rooms where name = 'Other'`)).toEqual([]);
  });

  it('bad arguments are usage errors naming what is wrong', async () => {
    await expect(gatehouse('kb ingest', [dir, '--room', 'Deals'])).rejects.toThrow(new CliUsageError('--owner is required'));
    await expect(gatehouse('kb ingest', ['--room', 'Deals', '--owner', 'kb@example.com'])).rejects.toThrow(new CliUsageError('give at least one file or folder'));
    await expect(gatehouse('kb ingest', [dir, '--rooom', 'Deals', '--owner', 'kb@example.com'])).rejects.toThrow(new CliUsageError('Unknown flag --rooom'));
    await expect(gatehouse('kb ingest', [join(dir, 'missing.txt'), '--room', 'Deals', '--owner', 'kb@example.com'])).rejects.toThrow(/cannot read/);
  });
});
