import { sha256Hex } from '../domain/canonical-json.ts';

/**
 * Opaque cursors for search pages, bound to the query they came from: a cursor replayed with a
 * different query is refused rather than silently read as some other page.
 */
export function encodeCursor(query: string, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, q: sha256Hex(query).slice(0, 16) })).toString('base64url');
}

export function decodeCursor(query: string, cursor: string | undefined): number | null {
  if (cursor === undefined) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; q?: unknown };
    if (typeof parsed.o !== 'number' || !Number.isInteger(parsed.o) || parsed.o < 0 || parsed.q !== sha256Hex(query).slice(0, 16)) return null;
    return parsed.o;
  } catch {
    return null;
  }
}
