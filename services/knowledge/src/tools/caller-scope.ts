import { KnowledgeToolError } from '../errors.ts';
import type { MatchScope } from '../store/match-store.ts';
import type { RoomRow } from '../store/rooms-store.ts';
import { parseId } from './format.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

export interface CallerScope {
  readonly userId: string;
  /** Every room the caller can read. */
  readonly rooms: readonly RoomRow[];
  /** What this call searches: the caller's rooms, narrowed by `rooms` / `files` arguments. */
  readonly match: MatchScope;
  /** Echoed in results so a total always states what it is a total over. */
  readonly description: { rooms: Array<{ id: string; name: string }>; files: string[] | 'all' };
}

/**
 * Resolves `rooms` (ids or names) and `files` (DOC:/FILE:/KG: ids) against what the caller may
 * read. A room or file outside that view is reported exactly like one that does not exist, so
 * the answer never discloses another user's rooms.
 */
export async function resolveCallerScope(deps: KnowledgeToolDeps, userId: string, rooms?: readonly string[], files?: readonly string[]): Promise<CallerScope> {
  const accessible = await deps.store.rooms.accessibleRooms(userId);
  let selected = accessible;
  if (rooms?.length) {
    selected = [];
    for (const wanted of rooms) {
      const w = wanted.replace(/^ROOM:/, '').trim();
      const found = accessible.filter((r) => r.id === w.toLowerCase() || r.name === w);
      if (!found.length) throw new KnowledgeToolError(`No room "${wanted}" among the rooms you can access.`);
      selected.push(...found.filter((f) => !selected.includes(f)));
    }
  }
  let documentIds: string[] | undefined;
  if (files?.length) {
    documentIds = [];
    for (const f of files) {
      const parsed = parseId(f, ['DOC', 'FILE', 'KG']);
      const doc = parsed && (await deps.store.documents.getDocument(parsed.id, selected.map((r) => r.id)));
      if (!doc) throw new KnowledgeToolError(`No file "${f}" in the rooms searched.`);
      documentIds.push(doc.id);
    }
  }
  return {
    userId,
    rooms: accessible,
    match: { roomIds: selected.map((r) => r.id), ...(documentIds ? { documentIds } : {}) },
    description: { rooms: selected.map((r) => ({ id: r.id, name: r.name })), files: documentIds ? documentIds.map((d) => `DOC:${d}`) : 'all' },
  };
}
