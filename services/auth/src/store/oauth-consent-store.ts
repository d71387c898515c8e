import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { oauthConsentRequests } from './schema.ts';

/** A validated authorization request waiting for the person's decision. */
export interface ConsentRequest {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly state: string | null;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly expiresAt: Date;
}

export async function insertConsentRequest(db: Db, idHash: string, request: ConsentRequest): Promise<void> {
  await db.insert(oauthConsentRequests).values({ idHash, ...request, scopes: [...request.scopes] });
}

export async function findConsentRequest(db: Db, idHash: string, now: Date): Promise<ConsentRequest | undefined> {
  const [row] = await db.select().from(oauthConsentRequests).where(eq(oauthConsentRequests.idHash, idHash)).limit(1);
  return row && row.expiresAt > now ? row : undefined;
}

/** Deletes and returns the request in one statement, so two submissions cannot both use it. */
export async function takeConsentRequest(db: Db, idHash: string, now: Date): Promise<ConsentRequest | undefined> {
  const [row] = await db.delete(oauthConsentRequests).where(eq(oauthConsentRequests.idHash, idHash)).returning();
  return row && row.expiresAt > now ? row : undefined;
}

export async function purgeExpiredConsentRequests(db: Db, now: Date): Promise<number> {
  const rows = await db.delete(oauthConsentRequests).where(lt(oauthConsentRequests.expiresAt, now)).returning({ idHash: oauthConsentRequests.idHash });
  return rows.length;
}
