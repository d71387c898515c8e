import { createHash } from 'node:crypto';

/**
 * Opaque keyset cursors for the list tools. A cursor names the list and a digest of the scope it
 * was issued for (caller, chain, filters); a cursor replayed against another list, another
 * caller or other filters is refused as `invalid_params` rather than silently paging something
 * else. Queries are always scoped by the caller anyway, so a forged position leaks nothing.
 */
export interface CursorPosition {
  /** The last item's sort key (e.g. its id or `created_at|id`). */
  readonly after: string;
}

export function scopeDigest(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(list: string, scope: string, after: string): string {
  return Buffer.from(JSON.stringify({ l: list, s: scope, a: after })).toString('base64url');
}

export type CursorDecode = { ok: true; position: CursorPosition } | { ok: false; reason: 'malformed' | 'foreign' };

export function decodeCursor(cursor: string, list: string, scope: string): CursorDecode {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const p = parsed as { l?: unknown; s?: unknown; a?: unknown } | null;
  if (!p || typeof p.l !== 'string' || typeof p.s !== 'string' || typeof p.a !== 'string' || p.a.length > 200) {
    return { ok: false, reason: 'malformed' };
  }
  if (p.l !== list || p.s !== scope) return { ok: false, reason: 'foreign' };
  return { ok: true, position: { after: p.a } };
}
