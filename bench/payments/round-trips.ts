/**
 * How many statements (each one network round trip) one `propose_send` sends to Postgres, for
 * a new proposal and for a duplicate. It calls the tool's handler on a counting postgres.js
 * client (its `debug` hook sees every query, BEGIN and COMMIT included), so the count is the
 * driver's, not an estimate from server statistics that other sessions also move.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/payments/round-trips.ts
 */
import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Db } from '../../shared/db/client.ts';
import { createLogger } from '../../shared/log.ts';
import type { Session } from '../../shared/auth/session.ts';
import { loadPaymentsConfig } from '../../services/payments/src/config.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';
import { activateChainAccount } from '../../services/payments/src/store/directory-store.ts';
import { fundWallet } from '../../services/payments/src/store/faucet.ts';
import { createPaymentsTools } from '../../services/payments/src/tools/catalog.ts';
import { createSettlementWaiters } from '../../services/payments/src/worker/settlement-waiters.ts';
import { openTestDb } from '../../test/support/test-db.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('round-trips counts postgres.js statements: set DATABASE_URL');
const CALLS = 200;

const handle = await openTestDb();
const sender = randomUUID();
const recipient = randomUUID();
await activateChainAccount(handle.db, { entityKind: 'user', entityId: sender, chainId: '153', displayName: 'sender', createdBy: sender });
const { wallet: to } = await activateChainAccount(handle.db, { entityKind: 'user', entityId: recipient, chainId: '153', displayName: 'recipient', createdBy: recipient });
await fundWallet(handle.db, { userId: sender, chainId: '153', asset: 'USDC', amount: '1000' });
await insertContact(handle.db, { workspaceId: sender, name: 'Recipient', email: 'recipient@example.com', walletAddress: to.address });

let statements = 0;
const client = postgres(url, { onnotice: () => {}, max: 10, connection: { search_path: `${handle.config.databaseSchema},public` }, debug: () => statements++ });
const db = drizzle(client) as unknown as Db;
const logger = createLogger('silent');
const tools = createPaymentsTools({
  handle: { ...handle, db },
  chainId: '153',
  mode: 'test',
  appUrl: 'http://127.0.0.1:8080',
  authPublicUrl: 'http://127.0.0.1:8080',
  config: loadPaymentsConfig({}),
  waiters: createSettlementWaiters(handle),
  logger,
  now: () => new Date(),
});
const proposeSend = tools.find((t) => t.name === 'propose_send')!;
const session: Session = { subject: sender, kind: 'connector', chainId: '153', audience: 'bench', scopes: [], keyId: 'bench', expiresAt: 0, sessionToken: '' };

/** Statements per call with `inFlight` calls outstanding at a time (1: one after another). */
async function perCall(args: (n: number) => Record<string, unknown>, expectCreated: boolean, inFlight = 1): Promise<number> {
  const before = statements;
  let next = 0;
  const lane = async () => {
    while (next < CALLS) {
      const n = next++;
      const result = await proposeSend.handler(args(n), { session, requestId: String(n), signal: new AbortController().signal });
      const created = (result.structuredContent as { created?: boolean } | undefined)?.created;
      if (result.isError || created !== expectCreated) throw new Error(`unexpected answer: ${JSON.stringify(result)}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (statements - before) / CALLS;
}

const send = (requestId: string) => ({ asset: 'USDC', amount: '0.01', to: 'recipient@example.com', request_id: requestId });
await perCall((n) => send(`warm-${n}`), true); // the asset cache and each connection's prepared statement
const fresh = await perCall((n) => send(`new-${n}`), true);
const duplicate = await perCall(() => send('new-0'), false);
console.log(`propose_send statements per call on Postgres, one call at a time: new intent ${fresh}, duplicate ${duplicate} (${CALLS} calls each, after warm-up)`);
{
  const freshConcurrent = await perCall((n) => send(`concurrent-${n}`), true, 32);
  const duplicateConcurrent = await perCall(() => send('new-0'), false, 32);
  console.log(`with 32 calls in flight: new intent ${freshConcurrent.toFixed(3)}, duplicate ${duplicateConcurrent.toFixed(3)}`);
}
await client.end();
await handle.close();
