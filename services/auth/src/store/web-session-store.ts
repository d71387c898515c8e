import { and, eq, gt, lt } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../../../shared/db/client.ts';
import { webSessions } from './schema.ts';

const hashId = (id: string) => createHash('sha256').update(id).digest('base64url');

/** Creates a web session; returns the raw cookie value (stored only as a hash) and its CSRF token. */
export async function createWebSession(db: Db, userId: string, ttlSeconds: number): Promise<{ id: string; csrfToken: string }> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await db.insert(webSessions).values({ idHash: hashId(id), userId, csrfToken, expiresAt: new Date(Date.now() + ttlSeconds * 1000) });
  // Opportunistic sweep of expired rows so the table does not grow without bound.
  await db.delete(webSessions).where(lt(webSessions.expiresAt, new Date()));
  return { id, csrfToken };
}

export async function findWebSession(db: Db, id: string): Promise<{ userId: string; csrfToken: string } | undefined> {
  const [row] = await db
    .select({ userId: webSessions.userId, csrfToken: webSessions.csrfToken })
    .from(webSessions)
    .where(and(eq(webSessions.idHash, hashId(id)), gt(webSessions.expiresAt, new Date())))
    .limit(1);
  return row;
}

export async function deleteWebSession(db: Db, id: string): Promise<void> {
  await db.delete(webSessions).where(eq(webSessions.idHash, hashId(id)));
}
