/**
 * The servers bench/payments measures, in their own process so the load generator does not share
 * their event loop: auth + the test-chain payments host on one fresh database (Postgres in a
 * throw-away schema when DATABASE_URL is set, else in-memory PGlite), with funded senders,
 * a recipient in every sender's contacts and one connector key per sender.
 *
 * Protocol: one JSON line on stdout when ready; then one JSON command per stdin line, one JSON
 * answer per stdout line (`count`, `countRange`, `countRequest`, `settle`, `baseline`, `cpu` (this process's CPU ms so far), `exit`).
 */
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../shared/log.ts';
import type { PaymentsService } from '../../services/payments/src/app.ts';
import { loadPaymentsConfig } from '../../services/payments/src/config.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { activateChainAccount } from '../../services/payments/src/store/directory-store.ts';
import { fundWallet } from '../../services/payments/src/store/faucet.ts';
import { createSettlementWorker } from '../../services/payments/src/worker/settlement-worker.ts';
import { startStack } from '../../test/support/stack.ts';

const SENDERS = Number(process.env.BENCH_SENDERS ?? 16);
const CHAIN = '153';

process.env.PAYMENTS_WORKER_ENABLED = 'false';
const stack = await startStack({
  services: ['payments-test'],
  // Production-like exchange cache (the test default of 1 s would re-exchange every second).
  env: { PAYMENTS_WORKER_ENABLED: 'false', EXCHANGE_CACHE_TTL_SECONDS: '60', TEST_LOG_LEVEL: 'silent' },
});
const db = stack.db.db;
const payments = stack.services['payments-test'] as PaymentsService;

const recipient = await stack.createUser({ email: 'recipient@example.com' });
const { wallet: recipientWallet } = await activateChainAccount(db, { entityKind: 'user', entityId: recipient.id, chainId: CHAIN, displayName: 'recipient', createdBy: recipient.id });
const keys: string[] = [];
for (let i = 0; i < SENDERS; i++) {
  const email = `sender${i}@example.com`;
  const user = await stack.createUser({ email });
  await activateChainAccount(db, { entityKind: 'user', entityId: user.id, chainId: CHAIN, displayName: email, createdBy: user.id });
  await fundWallet(db, { userId: user.id, chainId: CHAIN, asset: 'USDC', amount: '1000000' });
  await insertContact(db, { workspaceId: user.id, name: 'Recipient', email: recipient.email, walletAddress: recipientWallet.address });
  keys.push((await stack.createKey(email, { kind: 'connector', chains: [CHAIN] })).api_key);
}

async function countIntents(): Promise<Record<string, number>> {
  const rows = await stack.db.rows<{ status: string; n: number }>(sql`select status, count(*)::int as n from pay_intents group by status`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Intents filed by the proposals numbered [from, to) (request_id `bench-<n>`). */
async function countRange(from: number, to: number): Promise<number> {
  const [row] = await stack.db.rows<{ n: number }>(
    sql`select count(*)::int as n from pay_intents where request_id ~ '^bench-[0-9]+$' and substr(request_id, 7)::int >= ${from} and substr(request_id, 7)::int < ${to}`,
  );
  return Number(row!.n);
}

/**
 * Approves every open proposal the way a person's confirm does (one conditional UPDATE per
 * intent is what the route runs; here one statement approves them all, audited by the trigger),
 * then times workers draining them. Approval is outside the timed section.
 */
async function settle(workers: number): Promise<Record<string, unknown>> {
  await stack.db.rows(
    sql`update pay_intents set status = 'approved', decided_at = now(), decided_by = actor_user_id, last_actor = 'user:' || actor_user_id where status = 'proposed'`,
  );
  const approved = (await countIntents()).approved ?? 0;
  const config = loadPaymentsConfig({ ...process.env, PAYMENTS_WORKER_ENABLED: 'false' });
  const logger = createLogger('silent');
  const pool = Array.from({ length: workers }, (_, i) => (i === 0 ? payments.worker : createSettlementWorker({ handle: stack.db, config, logger })));
  const started = performance.now();
  let settled = 0;
  await Promise.all(
    pool.map(async (w) => {
      for (;;) {
        const n = await w.runOnce();
        settled += n;
        if (n === 0 && ((await countIntents()).approved ?? 0) === 0) return;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { approved, settled, seconds, statuses: await countIntents() };
}

/** The floor any settlement stands on: one single-row INSERT per statement, `lanes` at a time. */
async function baseline(rows: number, lanes: number): Promise<Record<string, unknown>> {
  await stack.db.rows(sql`create table if not exists bench_baseline (id bigserial primary key, intent_id uuid not null, payload jsonb not null)`);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next++ < rows) await stack.db.rows(sql`insert into bench_baseline (intent_id, payload) values (gen_random_uuid(), '{"amount":"1"}'::jsonb)`);
    }),
  );
  return { rows, seconds: (performance.now() - started) / 1000 };
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

process.stdout.write(`${JSON.stringify({ url: stack.url('payments-test'), keys, db: stack.db.kind, batchSize: loadPaymentsConfig({}).workerBatchSize })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line) as { cmd: string; workers?: number; rows?: number; lanes?: number; from?: number; to?: number; requestId?: string };
  let answer: unknown;
  if (cmd.cmd === 'count') answer = await countIntents();
  else if (cmd.cmd === 'countRequest') answer = Number((await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from pay_intents where request_id = ${cmd.requestId ?? ''}`))[0]!.n);
  else if (cmd.cmd === 'countRange') answer = await countRange(cmd.from ?? 0, cmd.to ?? 0);
  else if (cmd.cmd === 'settle') answer = await settle(cmd.workers ?? 1);
  else if (cmd.cmd === 'baseline') answer = await baseline(cmd.rows ?? 2000, cmd.lanes ?? 1);
  else if (cmd.cmd === 'cpu') answer = cpuMs(process.cpuUsage());
  else if (cmd.cmd === 'exit') {
    await stack.close();
    process.stdout.write('{}\n');
    process.exit(0);
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
// The load generator went away without `exit` (it failed): do not linger as an orphan holding
// ports and burning CPU in the next run's measurements.
await stack.close();
process.exit(1);
