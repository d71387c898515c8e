import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { newWalletAddress } from '../domain/wallet-address.ts';
import { accounts, assets, entities, memberships, wallets } from './schema.ts';

/** Entities, workspaces, chain accounts (wallets) and assets. */

export type Asset = typeof assets.$inferSelect;
export type Wallet = typeof wallets.$inferSelect;

export async function listAssets(db: Db, chainId: string, opts: { kind?: string; after?: string; limit: number }): Promise<Asset[]> {
  return db
    .select()
    .from(assets)
    .where(and(eq(assets.chainId, chainId), opts.kind ? eq(assets.kind, opts.kind) : undefined, opts.after ? gt(assets.id, opts.after) : undefined))
    .orderBy(asc(assets.id))
    .limit(opts.limit);
}

/** `asset` is a symbol (case-insensitive) or an asset id, on this chain only. */
export async function findAsset(db: Db, chainId: string, asset: string): Promise<Asset | undefined> {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.chainId, chainId), or(eq(assets.id, asset), eq(assets.symbol, asset.toUpperCase()))))
    .limit(1);
  return row;
}

export async function findWallet(db: Db, entityId: string, chainId: string): Promise<Wallet | undefined> {
  const [row] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.entityId, entityId), eq(wallets.chainId, chainId)))
    .limit(1);
  return row;
}

export async function findWalletById(db: Db, id: string): Promise<Wallet | undefined> {
  const [row] = await db.select().from(wallets).where(eq(wallets.id, id)).limit(1);
  return row;
}

export async function findWalletByAddress(db: Db, chainId: string, address: string): Promise<Wallet | undefined> {
  const [row] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.chainId, chainId), eq(wallets.address, address.toLowerCase())))
    .limit(1);
  return row;
}

export async function findEntity(db: Db, id: string): Promise<typeof entities.$inferSelect | undefined> {
  const [row] = await db.select().from(entities).where(eq(entities.id, id)).limit(1);
  return row;
}

/** A person's own entity row (id = auth user id). Not a wallet: creating it activates nothing. */
export async function ensureUserEntity(db: Db, userId: string, displayName: string): Promise<void> {
  await db.insert(entities).values({ id: userId, kind: 'user', displayName, createdBy: userId }).onConflictDoNothing();
}

export async function createGroup(db: Db, input: { name: string; ownerUserId: string; ownerDisplayName?: string }): Promise<string> {
  await ensureUserEntity(db, input.ownerUserId, input.ownerDisplayName ?? input.ownerUserId);
  const [group] = await db.insert(entities).values({ kind: 'group', displayName: input.name, createdBy: input.ownerUserId }).returning({ id: entities.id });
  await db.insert(memberships).values({ groupId: group!.id, userId: input.ownerUserId, role: 'owner' });
  return group!.id;
}

export async function addMember(db: Db, groupId: string, userId: string, role: 'admin' | 'member' = 'member'): Promise<void> {
  await db.insert(memberships).values({ groupId, userId, role }).onConflictDoNothing();
}

export async function membershipRole(db: Db, groupId: string, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.role;
}

export async function listWorkspaces(db: Db, userId: string): Promise<Array<{ id: string; name: string; kind: string; role: string }>> {
  const groups = await db
    .select({ id: entities.id, name: entities.displayName, role: memberships.role })
    .from(memberships)
    .innerJoin(entities, eq(entities.id, memberships.groupId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(entities.displayName))
    .limit(100);
  return [{ id: userId, name: 'Personal', kind: 'personal', role: 'owner' }, ...groups.map((g) => ({ ...g, kind: 'group' }))];
}

/**
 * Explicit chain-account activation (seed 001: never implicit). Idempotent: the unique
 * (entity, chain) index decides, so two concurrent activations yield one wallet.
 */
export async function activateChainAccount(
  db: Db,
  input: { entityKind: 'user' | 'group'; entityId: string; chainId: string; displayName: string; createdBy: string },
): Promise<{ wallet: Wallet; created: boolean }> {
  if (input.entityKind === 'user') await ensureUserEntity(db, input.entityId, input.displayName);
  const [created] = await db
    .insert(wallets)
    .values({ entityId: input.entityId, chainId: input.chainId, address: newWalletAddress() })
    .onConflictDoNothing()
    .returning();
  if (created) return { wallet: created, created: true };
  const existing = await findWallet(db, input.entityId, input.chainId);
  if (!existing) throw new Error('chain account vanished after a conflicting insert');
  return { wallet: existing, created: false };
}

export interface Balance {
  readonly assetId: string;
  readonly symbol: string;
  readonly kind: string;
  readonly decimals: number;
  readonly units: bigint;
}

export async function walletBalances(db: Db, walletId: string, assetIds?: readonly string[]): Promise<Balance[]> {
  const rows = await db
    .select({ assetId: assets.id, symbol: assets.symbol, kind: assets.kind, decimals: assets.decimals, balance: accounts.balance })
    .from(accounts)
    .innerJoin(assets, eq(assets.id, accounts.assetId))
    .where(and(eq(accounts.walletId, walletId), eq(accounts.kind, 'wallet'), assetIds ? inArray(accounts.assetId, [...assetIds]) : undefined))
    .orderBy(asc(assets.symbol));
  return rows.map((r) => ({ assetId: r.assetId, symbol: r.symbol, kind: r.kind, decimals: r.decimals, units: BigInt(r.balance) }));
}

/** Sum of every balance per asset: zero for every asset, or the ledger is broken. */
export async function ledgerTotals(db: Db): Promise<Map<string, bigint>> {
  const rows = await db
    .select({ assetId: accounts.assetId, total: sql<string>`sum(${accounts.balance})::text` })
    .from(accounts)
    .groupBy(accounts.assetId);
  return new Map(rows.map((r) => [r.assetId, BigInt(r.total)]));
}
