import { exportJWK, generateKeyPair } from 'jose';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { gwSigningKeys } from './schema.ts';
import { randomUUID } from 'node:crypto';

/**
 * The receipt-signing key pair, created once and shared by every replica through the database
 * (the private JWK is stored like auth stores its signing keys). The first replica to start
 * inserts it; the rest read the same row.
 */
export async function ensureReceiptSigningKey(db: DbHandle): Promise<{ kid: string; privateJwk: Record<string, unknown>; publicJwk: Record<string, unknown> }> {
  const existing = await db.db.select().from(gwSigningKeys).orderBy(gwSigningKeys.createdAt).limit(1);
  if (existing[0]) return existing[0];
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `gw-${randomUUID()}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256' } as Record<string, unknown>;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } as Record<string, unknown>;
  await db.db.insert(gwSigningKeys).values({ kid, privateJwk, publicJwk }).onConflictDoNothing();
  const [first] = await db.db.select().from(gwSigningKeys).orderBy(gwSigningKeys.createdAt).limit(1);
  return first!;
}
