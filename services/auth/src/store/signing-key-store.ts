import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../../shared/db/client.ts';
import { signingKeys } from './schema.ts';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/**
 * Returns the active signing key, creating one on first boot. The insert races safely: the
 * partial unique index admits one active row, the loser's insert does nothing, and both then
 * read the winner's key.
 */
export async function ensureActiveSigningKey(db: Db): Promise<SigningKey> {
  const existing = await db.select().from(signingKeys).where(eq(signingKeys.active, true)).limit(1);
  if (existing.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256' };
    await db.insert(signingKeys).values({ kid, privateJwk, publicJwk, active: true }).onConflictDoNothing();
  }
  const [row] = await db.select().from(signingKeys).where(eq(signingKeys.active, true)).limit(1);
  if (!row) throw new Error('no active signing key after insert');
  return {
    kid: row.kid,
    privateKey: (await importJWK(row.privateJwk as JWK, 'ES256')) as CryptoKey,
    publicJwk: row.publicJwk as JWK,
  };
}

/** Every published key (active and retired), for the JWKS document. */
export async function listPublicJwks(db: Db): Promise<JWK[]> {
  const rows = await db.select({ publicJwk: signingKeys.publicJwk }).from(signingKeys);
  return rows.map((r) => r.publicJwk as JWK);
}
