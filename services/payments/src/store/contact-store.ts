import { and, asc, eq, gt, ilike, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../../shared/db/client.ts';
import { connectionRequests, contacts, wallets } from './schema.ts';

export type Contact = typeof contacts.$inferSelect;
export type ConnectionRequest = typeof connectionRequests.$inferSelect;

export async function insertContact(db: Db, input: { workspaceId: string; name: string; email?: string; walletAddress?: string; notes?: string }): Promise<Contact> {
  const [row] = await db
    .insert(contacts)
    .values({
      workspaceId: input.workspaceId,
      name: input.name,
      email: input.email?.toLowerCase() ?? null,
      walletAddress: input.walletAddress?.toLowerCase() ?? null,
      notes: input.notes ?? '',
    })
    .returning();
  return row!;
}

export async function listContacts(db: Db, workspaceId: string, opts: { query?: string; after?: string; limit: number }): Promise<Contact[]> {
  const q = opts.query?.replace(/[\\%_]/g, (c) => `\\${c}`);
  return db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        q ? or(ilike(contacts.name, `%${q}%`), ilike(contacts.email, `%${q}%`)) : undefined,
        opts.after ? gt(contacts.id, opts.after) : undefined,
      ),
    )
    .orderBy(asc(contacts.id))
    .limit(opts.limit);
}

export async function findContact(db: Db, workspaceId: string, id: string): Promise<Contact | undefined> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id)))
    .limit(1);
  return row;
}

/**
 * A contact (by id or email) and the chain account its address names on this chain, in one
 * round trip: propose_send resolves its recipient on every call.
 */
export async function findContactWithWallet(
  db: Db,
  workspaceId: string,
  chainId: string,
  by: { readonly id: string } | { readonly email: string },
): Promise<{ contact: Contact; wallet: typeof wallets.$inferSelect | null } | undefined> {
  const [row] = await db
    .select({ contact: contacts, wallet: wallets })
    .from(contacts)
    .leftJoin(wallets, and(eq(wallets.chainId, chainId), eq(wallets.address, contacts.walletAddress)))
    .where(and(eq(contacts.workspaceId, workspaceId), 'id' in by ? eq(contacts.id, by.id) : eq(contacts.email, by.email.toLowerCase())))
    .orderBy(asc(contacts.id))
    .limit(1);
  return row;
}

export type SendRecipient = { readonly address: string } | { readonly id: string } | { readonly email: string };

/**
 * propose_send's reads in ONE round trip: the sender's chain account and the recipient — a
 * wallet address, or a contact (by id or email) with the chain account its address names.
 * `undefined` means the sender has no chain account here; with no usable `to`, only the wallet is read; a missing contact or recipient
 * wallet comes back as null for the caller to name.
 */
export async function findSendParties(
  db: Db,
  input: { entityId: string; chainId: string; workspaceId: string; to: SendRecipient | undefined },
): Promise<{ wallet: typeof wallets.$inferSelect; contact: Contact | null; recipient: typeof wallets.$inferSelect | null } | undefined> {
  const recipient = alias(wallets, 'recipient');
  const sender = and(eq(wallets.entityId, input.entityId), eq(wallets.chainId, input.chainId));
  const { to } = input;
  if (!to) {
    const [row] = await db.select({ wallet: wallets }).from(wallets).where(sender).limit(1);
    return row && { ...row, contact: null, recipient: null };
  }
  if ('address' in to) {
    const [row] = await db
      .select({ wallet: wallets, recipient })
      .from(wallets)
      .leftJoin(recipient, and(eq(recipient.chainId, input.chainId), eq(recipient.address, to.address.toLowerCase())))
      .where(sender)
      .limit(1);
    return row && { ...row, contact: null };
  }
  const [row] = await db
    .select({ wallet: wallets, contact: contacts, recipient })
    .from(wallets)
    .leftJoin(contacts, and(eq(contacts.workspaceId, input.workspaceId), 'id' in to ? eq(contacts.id, to.id) : eq(contacts.email, to.email.toLowerCase())))
    .leftJoin(recipient, and(eq(recipient.chainId, input.chainId), eq(recipient.address, contacts.walletAddress)))
    .where(sender)
    .orderBy(asc(contacts.id))
    .limit(1);
  return row;
}

export async function findContactByEmail(db: Db, workspaceId: string, email: string): Promise<Contact | undefined> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email.toLowerCase())))
    .orderBy(asc(contacts.id))
    .limit(1);
  return row;
}

export async function insertConnectionRequest(
  db: Db,
  input: { fromEntityId: string; toEntityId?: string; toEmail: string; message?: string; status?: 'pending' | 'accepted' | 'declined' },
): Promise<ConnectionRequest> {
  const [row] = await db
    .insert(connectionRequests)
    .values({ fromEntityId: input.fromEntityId, toEntityId: input.toEntityId ?? null, toEmail: input.toEmail.toLowerCase(), message: input.message ?? '', status: input.status ?? 'pending' })
    .returning();
  return row!;
}

export async function listConnectionRequests(
  db: Db,
  entityId: string,
  opts: { direction: 'incoming' | 'outgoing' | 'all'; status?: string; after?: string; limit: number },
): Promise<ConnectionRequest[]> {
  const side =
    opts.direction === 'incoming'
      ? eq(connectionRequests.toEntityId, entityId)
      : opts.direction === 'outgoing'
        ? eq(connectionRequests.fromEntityId, entityId)
        : or(eq(connectionRequests.toEntityId, entityId), eq(connectionRequests.fromEntityId, entityId));
  return db
    .select()
    .from(connectionRequests)
    .where(and(side, opts.status ? eq(connectionRequests.status, opts.status) : undefined, opts.after ? gt(connectionRequests.id, opts.after) : undefined))
    .orderBy(asc(connectionRequests.id))
    .limit(opts.limit);
}
