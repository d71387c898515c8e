import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../../../shared/auth/guard-texts.ts';

/** 256 bits of randomness, prefixed with seed 001's `yf_api_` so clients and scanners recognise it. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Keys are high-entropy, so a plain SHA-256 (no salt, no stretching) is the right lookup hash. */
export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey).digest('base64url');
}

/** What the keys list shows: enough to tell keys apart, never enough to use one. */
export function displayPrefix(rawKey: string): string {
  return `${rawKey.slice(0, API_KEY_PREFIX.length + 6)}…`;
}
