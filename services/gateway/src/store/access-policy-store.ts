import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { AccessPolicy } from '../domain/access-policy.ts';
import { gwAccessPolicies } from './schema.ts';

export async function findAccessPolicy(db: DbHandle, subject: string): Promise<AccessPolicy | undefined> {
  const [row] = await db.db.select().from(gwAccessPolicies).where(eq(gwAccessPolicies.subject, subject));
  return row && { categories: row.categories, tiers: row.tiers };
}

export async function setAccessPolicy(db: DbHandle, subject: string, policy: AccessPolicy): Promise<void> {
  const v = { categories: [...policy.categories], tiers: [...policy.tiers], updatedAt: new Date() };
  await db.db.insert(gwAccessPolicies).values({ subject, ...v }).onConflictDoUpdate({ target: gwAccessPolicies.subject, set: v });
}
