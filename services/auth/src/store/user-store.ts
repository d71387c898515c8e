import { eq } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { users } from './schema.ts';

export type VerificationLevel = 'none' | 'kyc';

export interface User {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly verificationLevel: VerificationLevel;
  readonly liveConnectorsEnabled: boolean;
}

function toUser(row: typeof users.$inferSelect): User {
  return { ...row, verificationLevel: row.verificationLevel as VerificationLevel };
}

/** Emails are compared case-insensitively by storing them lower-cased (a CHECK enforces it). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  return row && toUser(row);
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row && toUser(row);
}

/** Returns undefined when the email is taken (the unique index decides, not a prior read). */
export async function insertUser(
  db: Db,
  input: { email: string; passwordHash: string; verificationLevel: VerificationLevel },
): Promise<User | undefined> {
  const [row] = await db
    .insert(users)
    .values({ email: normaliseEmail(input.email), passwordHash: input.passwordHash, verificationLevel: input.verificationLevel })
    .onConflictDoNothing()
    .returning();
  return row && toUser(row);
}

export async function countUsers(db: Db): Promise<number> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length;
}

export async function setLiveConnectorsEnabled(db: Db, userId: string, enabled: boolean): Promise<void> {
  await db.update(users).set({ liveConnectorsEnabled: enabled }).where(eq(users.id, userId));
}
