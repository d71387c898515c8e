import { sql } from 'drizzle-orm';
import { startStack, type Stack } from '../support/stack.ts';
import type { PaymentsService } from '../../services/payments/src/app.ts';
import { activateChainAccount, ledgerTotals } from '../../services/payments/src/store/directory-store.ts';
import { fundWallet } from '../../services/payments/src/store/faucet.ts';
import { insertContact } from '../../services/payments/src/store/contact-store.ts';

export const TEST_CHAIN = '153';

/** A stack with both payments hosts; the settlement worker is off unless a test starts it. */
export async function startPaymentsStack(env: Record<string, string> = {}): Promise<Stack & { payments: PaymentsService }> {
  // The payments config is parsed from the process env (the stack's env goes to shared config only).
  process.env.PAYMENTS_WORKER_ENABLED = env.PAYMENTS_WORKER_ENABLED ?? 'false';
  const stack = await startStack({ services: ['payments-test', 'payments-live'], env: { PAYMENTS_WORKER_ENABLED: 'false', ...env } });
  return Object.assign(stack, { payments: stack.services['payments-test'] as PaymentsService });
}

export interface Person {
  readonly id: string;
  readonly email: string;
  readonly key: string;
  readonly address: string;
}

/** A person with a test-chain wallet, optional funds, and a connector key bound to 153. */
export async function person(stack: Stack, email: string, opts: { fund?: Record<string, string>; wallet?: boolean; password?: string } = {}): Promise<Person> {
  const user = await stack.createUser({ email, ...(opts.password ? { password: opts.password } : {}) });
  let address = '';
  if (opts.wallet !== false) {
    const { wallet } = await activateChainAccount(stack.db.db, { entityKind: 'user', entityId: user.id, chainId: TEST_CHAIN, displayName: email, createdBy: user.id });
    address = wallet.address;
    for (const [asset, amount] of Object.entries(opts.fund ?? {})) await fundWallet(stack.db.db, { userId: user.id, chainId: TEST_CHAIN, asset, amount });
  }
  const key = (await stack.createKey(email, { kind: 'connector', chains: [TEST_CHAIN] })).api_key;
  return { id: user.id, email, key, address };
}

export async function addContact(stack: Stack, owner: Person, of: Person, extra: { notes?: string } = {}) {
  return insertContact(stack.db.db, { workspaceId: owner.id, name: of.email.split('@')[0]!, email: of.email, walletAddress: of.address, ...extra });
}

/** Parses a tool result: the document on success, the error document on failure. */
export function parse(result: unknown): any {
  const r = result as { content: Array<{ text: string }>; isError?: boolean; structuredContent?: unknown };
  return JSON.parse(r.content[0]!.text);
}

export async function oboFor(stack: Stack, userId: string, subjectKind: 'personal' | 'connector', service: 'payments-test' | 'payments-live' = 'payments-test'): Promise<string> {
  const minted = await stack.auth.accountService.mintOboToken({
    userId,
    audience: stack.config.services[service].resource,
    subjectKind,
    chainId: service === 'payments-test' ? '153' : '151',
    actor: stack.config.issuer,
  });
  return minted.access_token;
}

export async function internal(stack: Stack, token: string, method: string, path: string, body?: unknown, service: 'payments-test' | 'payments-live' = 'payments-test') {
  const res = await fetch(`${stack.config.services[service].publicUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function count(stack: Stack, table: string, where = sql`true`): Promise<number> {
  const [row] = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`);
  return Number(row!.n);
}

export async function assertLedgerSound(stack: Stack): Promise<void> {
  for (const [asset, total] of await ledgerTotals(stack.db.db)) if (total !== 0n) throw new Error(`ledger for ${asset} sums to ${total}`);
  const [neg] = await stack.db.rows<{ n: number }>(sql`select count(*)::int as n from pay_accounts where kind <> 'faucet' and balance < 0`);
  if (Number(neg!.n) !== 0) throw new Error('negative balance');
}
