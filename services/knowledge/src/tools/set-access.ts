import { KnowledgeToolError } from '../errors.ts';
import type { SetMemberRow, SetRow } from '../store/sets-store.ts';
import { docId, fileId, parseId, roomSource, setRef } from './format.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

/** A finished set the caller may read (owner, or member of a room it was shared into). */
export async function readableSet(deps: KnowledgeToolDeps, userId: string, setIdArg: string): Promise<SetRow> {
  const parsed = parseId(setIdArg, ['SET']);
  const rooms = await deps.store.rooms.accessibleRooms(userId);
  const set = parsed && (await deps.store.sets.byId(parsed.id, userId, rooms.map((r) => r.id)));
  if (!set) throw new KnowledgeToolError(`No set "${setIdArg}".`);
  if (set.status === 'running') throw new KnowledgeToolError(`Set "${setIdArg}" is still being frozen; poll set_status.`);
  if (set.status === 'failed') throw new KnowledgeToolError(`Set "${setIdArg}" failed to freeze: ${set.error ?? 'unknown error'}.`);
  return set;
}

/**
 * A member as the caller may see it. The owner gets ids and `{kg, room}`; someone reading a set
 * shared into their workspace gets `{set}` and no document link, because they were given the
 * set, not the room holding it (seed 001).
 */
export function presentMember(set: SetRow, member: Pick<SetMemberRow, 'documentId' | 'roomId' | 'roomName' | 'name'>) {
  if (set.access === 'owner') {
    return { doc_id: docId(member.documentId), file_id: fileId(member.documentId), name: member.name, source: roomSource(member.documentId, member.roomId, member.roomName) };
  }
  return { name: member.name, source: { set: setRef(set.id) } };
}
