/** Timestamps reach us as Date (postgres.js) or text (PGlite raw rows); the wire gets ISO 8601. */
export function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

export const docId = (id: string) => `DOC:${id}`;
export const fileId = (id: string) => `FILE:${id}`;
export const kgId = (id: string) => `KG:${id}`;
export const setRef = (id: string) => `SET:${id}`;
export const entityId = (id: string) => `ENT:${id}`;

/** Provenance of anything read from a room the caller can access (seed 001, "Every result names its source"). */
export function roomSource(documentId: string, roomId: string, roomName: string) {
  return { kg: kgId(documentId), room: roomId, room_name: roomName };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Accepts `PREFIX:<uuid>` or a bare uuid; anything else is undefined (and reads as not found). */
export function parseId(value: string, prefixes: readonly string[]): { prefix: string; id: string } | undefined {
  const m = /^([A-Z]+):(.+)$/.exec(value.trim());
  const prefix = m ? m[1] : prefixes[0];
  const id = (m ? m[2] : value).trim().toLowerCase();
  if (!prefixes.includes(prefix) || !UUID.test(id)) return undefined;
  return { prefix, id };
}
