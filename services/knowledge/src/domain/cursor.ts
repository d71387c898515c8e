import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque paging cursors. A cursor is `payload.mac`, where the HMAC covers the tool name, a hash
 * of the query it pages (every argument except `limit` and `cursor`) and the caller. So a cursor
 * cannot be forged or edited (tampering), replayed on another tool or query (confusion), or
 * handed to another user to read past their scope (a cursor only ever encodes a position; the
 * scope is recomputed from the caller on every page).
 */
export interface CursorBinding {
  readonly tool: string;
  readonly subject: string;
  readonly args: unknown;
}

export interface CursorCodec {
  issue(binding: CursorBinding, offset: number): string;
  /** The offset a cursor encodes, or `undefined` when it was not issued for this binding. */
  read(binding: CursorBinding, cursor: string): number | undefined;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function bindingHash({ tool, subject, args }: CursorBinding): string {
  return createHash('sha256').update(`${tool}\u0000${subject}\u0000${stableStringify(args)}`).digest('base64url').slice(0, 22);
}

export function createCursorCodec(secret: Uint8Array): CursorCodec {
  if (secret.byteLength < 32) throw new Error('cursor secret must be at least 32 bytes');
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
  return {
    issue(binding, offset) {
      const payload = Buffer.from(JSON.stringify({ b: bindingHash(binding), o: offset })).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    read(binding, cursor) {
      const [payload, tag, extra] = cursor.split('.');
      if (!payload || !tag || extra !== undefined) return undefined;
      const expected = mac(payload);
      const given = Buffer.from(tag, 'base64url');
      // Only the canonical spelling: base64url's last character has unused bits, and a decoder
      // that ignores them would accept several spellings of one tag (an edited cursor that works).
      if (given.length !== expected.length || given.toString('base64url') !== tag || !timingSafeEqual(given, expected)) return undefined;
      try {
        const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { b?: unknown; o?: unknown };
        if (decoded.b !== bindingHash(binding)) return undefined;
        return typeof decoded.o === 'number' && Number.isInteger(decoded.o) && decoded.o >= 0 ? decoded.o : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
