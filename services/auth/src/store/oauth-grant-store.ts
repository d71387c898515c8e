import { and, desc, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { oauthAccessTokens, oauthCodes, oauthGrants, oauthRefreshTokens } from './schema.ts';

export type Grant = typeof oauthGrants.$inferSelect;
export type AuthorizationCode = typeof oauthCodes.$inferSelect;
export type RefreshTokenRecord = typeof oauthRefreshTokens.$inferSelect;

export interface NewGrant {
  readonly userId: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly resource: string;
  readonly chainId: string | null;
  readonly scopes: readonly string[];
  readonly expiresAt: Date;
}

export interface NewCode {
  readonly codeHash: string;
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: string | null;
  readonly expiresAt: Date;
}

/** A grant and its one authorization code, written together. */
export async function insertGrantWithCode(db: Db, grant: NewGrant, code: NewCode): Promise<Grant> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(oauthGrants).values({ ...grant, scopes: [...grant.scopes] }).returning();
    await tx.insert(oauthCodes).values({
      ...code,
      grantId: row!.id,
      clientId: grant.clientId,
      redirectUri: grant.redirectUri,
      resource: grant.resource,
      scopes: [...grant.scopes],
    });
    return row!;
  });
}

export async function findCode(db: Db, codeHash: string): Promise<{ code: AuthorizationCode; grant: Grant } | undefined> {
  const [row] = await db
    .select({ code: oauthCodes, grant: oauthGrants })
    .from(oauthCodes)
    .innerJoin(oauthGrants, eq(oauthCodes.grantId, oauthGrants.id))
    .where(eq(oauthCodes.codeHash, codeHash))
    .limit(1);
  return row;
}

/** Marks the code used; false when another request already did (compare-and-set). */
export async function consumeCode(db: Db, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(oauthCodes)
    .set({ consumedAt: now })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.consumedAt)))
    .returning({ codeHash: oauthCodes.codeHash });
  return rows.length === 1;
}

export async function markGrantUsed(db: Db, grantId: string, now: Date, activate: boolean): Promise<void> {
  await db
    .update(oauthGrants)
    .set(activate ? { activatedAt: now, lastUsedAt: now } : { lastUsedAt: now })
    .where(eq(oauthGrants.id, grantId));
}

export async function insertRefreshToken(db: Db, token: { tokenHash: string; grantId: string; scopes: readonly string[]; expiresAt: Date }): Promise<void> {
  await db.insert(oauthRefreshTokens).values({ ...token, scopes: [...token.scopes] });
}

export async function insertAccessToken(db: Db, token: { jtiHash: string; grantId: string; expiresAt: Date }): Promise<void> {
  await db.insert(oauthAccessTokens).values(token);
}

export async function findRefreshToken(db: Db, tokenHash: string): Promise<{ token: RefreshTokenRecord; grant: Grant } | undefined> {
  const [row] = await db
    .select({ token: oauthRefreshTokens, grant: oauthGrants })
    .from(oauthRefreshTokens)
    .innerJoin(oauthGrants, eq(oauthRefreshTokens.grantId, oauthGrants.id))
    .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Marks a refresh token rotated; false when it was already rotated or revoked (compare-and-set). */
export async function rotateRefreshToken(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(oauthRefreshTokens)
    .set({ rotatedAt: now })
    .where(and(eq(oauthRefreshTokens.tokenHash, tokenHash), isNull(oauthRefreshTokens.rotatedAt), isNull(oauthRefreshTokens.revokedAt)))
    .returning({ tokenHash: oauthRefreshTokens.tokenHash });
  return rows.length === 1;
}

/** Revokes a grant and every refresh and access token it issued. */
export async function revokeGrant(db: Db, grantId: string, reason: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(oauthGrants).set({ revokedAt: now, revokedReason: reason }).where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
    await tx.update(oauthRefreshTokens).set({ revokedAt: now }).where(and(eq(oauthRefreshTokens.grantId, grantId), isNull(oauthRefreshTokens.revokedAt)));
    await tx.update(oauthAccessTokens).set({ revokedAt: now }).where(and(eq(oauthAccessTokens.grantId, grantId), isNull(oauthAccessTokens.revokedAt)));
  });
}

export async function findAccessToken(db: Db, jtiHash: string): Promise<{ revokedAt: Date | null; grant: Grant } | undefined> {
  const [row] = await db
    .select({ revokedAt: oauthAccessTokens.revokedAt, grant: oauthGrants })
    .from(oauthAccessTokens)
    .innerJoin(oauthGrants, eq(oauthAccessTokens.grantId, oauthGrants.id))
    .where(eq(oauthAccessTokens.jtiHash, jtiHash))
    .limit(1);
  return row;
}

export async function revokeAccessToken(db: Db, jtiHash: string, now: Date): Promise<void> {
  await db.update(oauthAccessTokens).set({ revokedAt: now }).where(and(eq(oauthAccessTokens.jtiHash, jtiHash), isNull(oauthAccessTokens.revokedAt)));
}

/** The person's live grants, newest first ("Connected apps"). */
export async function listActiveGrants(db: Db, userId: string, now: Date): Promise<Grant[]> {
  const rows = await db
    .select()
    .from(oauthGrants)
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt), isNotNull(oauthGrants.activatedAt)))
    .orderBy(desc(oauthGrants.createdAt));
  return rows.filter((g) => g.expiresAt > now);
}

export async function findGrantForUser(db: Db, userId: string, grantId: string): Promise<Grant | undefined> {
  const [row] = await db.select().from(oauthGrants).where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.userId, userId))).limit(1);
  return row;
}

/**
 * Deletes what can no longer be used: expired codes, refresh and access tokens, and grants that
 * are revoked, expired, or were never redeemed within a day. Deleting a token row fails closed:
 * an unknown access-token id is reported revoked.
 */
export async function purgeExpiredGrants(db: Db, now: Date): Promise<{ codes: number; refreshTokens: number; accessTokens: number; grants: number }> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const codes = await db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, dayAgo)).returning({ k: oauthCodes.codeHash });
  const refreshTokens = await db.delete(oauthRefreshTokens).where(lt(oauthRefreshTokens.expiresAt, now)).returning({ k: oauthRefreshTokens.tokenHash });
  const accessTokens = await db.delete(oauthAccessTokens).where(lt(oauthAccessTokens.expiresAt, now)).returning({ k: oauthAccessTokens.jtiHash });
  const grants = await db
    .delete(oauthGrants)
    .where(or(lt(oauthGrants.expiresAt, now), lt(oauthGrants.revokedAt, dayAgo), and(isNull(oauthGrants.activatedAt), lt(oauthGrants.createdAt, dayAgo))))
    .returning({ k: oauthGrants.id });
  return { codes: codes.length, refreshTokens: refreshTokens.length, accessTokens: accessTokens.length, grants: grants.length };
}
