import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { apiKeys, users } from './schema.ts';

export type ApiKeyKind = 'personal' | 'connector';

export interface ApiKeyRecord {
  readonly id: string;
  readonly userId: string;
  readonly kind: ApiKeyKind;
  readonly allowedChains: readonly string[];
  readonly serviceName: string;
  readonly displayPrefix: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

const columns = {
  id: apiKeys.id,
  userId: apiKeys.userId,
  kind: apiKeys.kind,
  allowedChains: apiKeys.allowedChains,
  serviceName: apiKeys.serviceName,
  displayPrefix: apiKeys.displayPrefix,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

type Row = { [K in keyof typeof columns]: unknown };
const toRecord = (row: Row) => row as unknown as ApiKeyRecord;

export async function insertApiKey(
  db: Db,
  input: { userId: string; keyHash: string; displayPrefix: string; kind: ApiKeyKind; allowedChains: string[]; serviceName: string },
): Promise<ApiKeyRecord> {
  const [row] = await db.insert(apiKeys).values(input).returning(columns);
  return toRecord(row!);
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.select(columns).from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toRecord);
}

/** The key and its owner's live opt-in, read together so the exchange decides on one snapshot. */
export async function findApiKeyByHash(
  db: Db,
  keyHash: string,
): Promise<(ApiKeyRecord & { liveConnectorsEnabled: boolean }) | undefined> {
  const [row] = await db
    .select({ ...columns, liveConnectorsEnabled: users.liveConnectorsEnabled })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row as unknown as (ApiKeyRecord & { liveConnectorsEnabled: boolean }) | undefined;
}

/**
 * Revokes one of the user's own keys. Conditional on ownership in the statement itself, so
 * another user's key id is indistinguishable from an unknown one. Revoking twice is a no-op
 * that still reports the key (idempotent).
 */
export async function revokeApiKey(db: Db, userId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  const [row] = await db.select(columns).from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId))).limit(1);
  return row && toRecord(row);
}
