import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { kbRoomMembers, kbRooms } from './schema.ts';

export interface RoomRow {
  readonly id: string;
  readonly name: string;
  readonly kind: 'workspace' | 'notebook';
  readonly role: string;
  readonly createdAt: Date;
}

export type RoomKind = 'workspace' | 'notebook';

export function createRoomsStore(handle: DbHandle) {
  const { db } = handle;
  return {
    /** Every room the user is a member of: the whole of what the user can read. */
    async accessibleRooms(userId: string): Promise<RoomRow[]> {
      return handle.rows<RoomRow>(sql`
        select r.id::text as id, r.name, r.kind, m.role, r.created_at as "createdAt"
        from kb_room_members m join kb_rooms r on r.id = m.room_id
        where m.user_id = ${userId} order by r.name, r.id`);
    },

    /**
     * The creator's room of that name, created on first use. The unique (creator, name) index
     * makes two concurrent ingests agree on one room instead of racing to create two.
     */
    async ensureRoom(name: string, userId: string, kind: RoomKind = 'workspace'): Promise<RoomRow> {
      await db.insert(kbRooms).values({ name, kind, createdBy: userId }).onConflictDoNothing();
      const [room] = await handle.rows<{ id: string }>(sql`select id::text as id from kb_rooms where created_by = ${userId} and name = ${name}`);
      await db.insert(kbRoomMembers).values({ roomId: room.id, userId, role: 'owner' }).onConflictDoNothing();
      const rows = await handle.rows<RoomRow>(sql`
        select r.id::text as id, r.name, r.kind, m.role, r.created_at as "createdAt"
        from kb_rooms r join kb_room_members m on m.room_id = r.id and m.user_id = ${userId} where r.id = ${room.id}`);
      return rows[0];
    },

    async addMember(roomId: string, userId: string, role: 'owner' | 'member' = 'member'): Promise<void> {
      await db.insert(kbRoomMembers).values({ roomId, userId, role }).onConflictDoNothing();
    },

    /** The single accepted read of auth's table: an owner e-mail to a user id (CLI only). */
    async findUserIdByEmail(email: string): Promise<string | undefined> {
      const rows = await handle.rows<{ id: string }>(sql`select id::text as id from users where email = ${email.trim().toLowerCase()}`);
      return rows[0]?.id;
    },
  };
}

export type RoomsStore = ReturnType<typeof createRoomsStore>;
