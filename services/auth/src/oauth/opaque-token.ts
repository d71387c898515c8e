import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Codes, refresh tokens, client secrets and consent ids are 256-bit random strings; the store
 * keeps only their SHA-256, so a database read does not yield a usable credential (AS-23).
 */
export function generateOpaqueToken(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashOpaqueToken(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Constant-time comparison of a presented secret against a stored hash. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashOpaqueToken(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
