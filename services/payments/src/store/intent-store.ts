import { and, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../../shared/db/client.ts';
import { OPEN_STATUSES, type IntentKind, type IntentStatus } from '../domain/intent-states.ts';
import { intentEvents, intents } from './schema.ts';

export type IntentRow = typeof intents.$inferSelect;

export interface NewIntent {
  readonly workspaceId: string;
  readonly chainId: string;
  readonly kind: IntentKind;
  readonly actorUserId: string;
  readonly actor: Record<string, unknown>;
  readonly walletId: string;
  readonly arguments: Record<string, unknown>;
  readonly requestId: string | null;
  readonly identityHash: string;
  readonly title: string;
  readonly rationale: string;
  readonly expiresAt: Date;
}

export type FileOutcome =
  | { readonly kind: 'created'; readonly intent: IntentRow }
  | { readonly kind: 'existing'; readonly intent: IntentRow }
  | { readonly kind: 'request_conflict'; readonly intent: IntentRow };

const open = inArray(intents.status, [...OPEN_STATUSES]);

/**
 * Files a proposal, or finds the open intent with the same identity. The partial unique index
 * decides — there is no read-then-insert window — so 100 identical proposals racing across
 * replicas file exactly one intent and the other 99 get it back with `created: false`.
 */
export async function fileIntent(db: Db, input: NewIntent, now: Date): Promise<FileOutcome> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const [inserted] = await db
      .insert(intents)
      .values({ ...input, status: 'proposed', lastActor: `user:${input.actorUserId}` })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { kind: 'created', intent: inserted };

    const [same] = await db.select().from(intents).where(and(eq(intents.identityHash, input.identityHash), open)).limit(1);
    const blocking =
      same ??
      (input.requestId
        ? (
            await db
              .select()
              .from(intents)
              .where(
                and(
                  eq(intents.actorUserId, input.actorUserId),
                  eq(intents.chainId, input.chainId),
                  eq(intents.workspaceId, input.workspaceId),
                  eq(intents.requestId, input.requestId),
                  open,
                ),
              )
              .limit(1)
          )[0]
        : undefined);
    if (!blocking) continue; // it closed between our insert and our read: file again
    // A proposal that has outlived its 15 minutes but was not swept yet no longer blocks anything.
    if (blocking.status === 'proposed' && blocking.expiresAt <= now) {
      await expireIntent(db, blocking.id, now);
      continue;
    }
    return blocking === same ? { kind: 'existing', intent: blocking } : { kind: 'request_conflict', intent: blocking };
  }
  throw new Error('could not file the intent: the open intent kept changing');
}

async function expireIntent(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(intents)
    .set({ status: 'expired', lastActor: 'system:expiry' })
    .where(and(eq(intents.id, id), eq(intents.status, 'proposed'), lte(intents.expiresAt, now)));
}

/** Party to an intent: its actor, or a member of the workspace it was filed in. */
function partyOf(userId: string) {
  return or(
    eq(intents.actorUserId, userId),
    eq(intents.workspaceId, userId),
    sql`exists (select 1 from pay_memberships m where m.group_id = ${intents.workspaceId} and m.user_id = ${userId})`,
  );
}

export async function findIntentForParty(db: Db, workspaceId: string, intentId: string, userId: string): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(intents)
    .where(and(eq(intents.id, intentId), eq(intents.workspaceId, workspaceId), partyOf(userId)))
    .limit(1);
  return row;
}

export async function findIntentByMessageIdForParty(db: Db, messageId: string, userId: string): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(intents)
    .where(and(eq(intents.messageId, messageId), partyOf(userId)))
    .limit(1);
  return row;
}

export async function findIntentById(db: Db, intentId: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, intentId)).limit(1);
  return row;
}

export type DecisionOutcome =
  | { readonly kind: 'decided'; readonly intent: IntentRow }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'expired'; readonly intent: IntentRow }
  | { readonly kind: 'already_decided'; readonly intent: IntentRow };

/**
 * The person's decision. One conditional UPDATE: only a `proposed`, unexpired intent whose
 * wallet belongs to the decider changes, so of two concurrent confirms exactly one wins and
 * the other learns the intent was already decided. Only the wallet owner may decide: a
 * workspace colleague can see an intent but cannot spend someone else's wallet.
 */
export async function decideIntent(
  db: Db,
  input: { workspaceId: string; intentId: string; userId: string; decision: 'approve' | 'reject'; now: Date },
): Promise<DecisionOutcome> {
  const [decided] = await db
    .update(intents)
    .set({
      status: input.decision === 'approve' ? 'approved' : 'cancelled',
      decidedAt: input.now,
      decidedBy: input.userId,
      lastActor: `user:${input.userId}`,
    })
    .where(
      and(
        eq(intents.id, input.intentId),
        eq(intents.workspaceId, input.workspaceId),
        eq(intents.actorUserId, input.userId),
        eq(intents.status, 'proposed'),
        sql`${intents.expiresAt} > ${input.now.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  if (decided) return { kind: 'decided', intent: decided };
  const current = await findIntentForParty(db, input.workspaceId, input.intentId, input.userId);
  if (!current || current.actorUserId !== input.userId) return { kind: 'not_found' };
  if (current.status === 'proposed') {
    await expireIntent(db, current.id, input.now);
    return { kind: 'expired', intent: (await findIntentById(db, current.id)) ?? current };
  }
  return current.status === 'expired' ? { kind: 'expired', intent: current } : { kind: 'already_decided', intent: current };
}

/** The inbox: intents the person is party to, newest first (keyset on created_at, id). */
export async function listIntentsForUser(
  db: Db,
  userId: string,
  opts: { chainId?: string; statuses?: readonly IntentStatus[]; before?: { createdAt: Date; id: string }; limit: number },
): Promise<IntentRow[]> {
  return db
    .select()
    .from(intents)
    .where(
      and(
        partyOf(userId),
        opts.chainId ? eq(intents.chainId, opts.chainId) : undefined,
        opts.statuses ? inArray(intents.status, [...opts.statuses]) : undefined,
        opts.before
          ? or(lt(intents.createdAt, opts.before.createdAt), and(eq(intents.createdAt, opts.before.createdAt), lt(intents.id, opts.before.id)))
          : undefined,
      ),
    )
    .orderBy(desc(intents.createdAt), desc(intents.id))
    .limit(opts.limit);
}

export async function intentHistory(db: Db, intentId: string) {
  return db.select().from(intentEvents).where(eq(intentEvents.intentId, intentId)).orderBy(intentEvents.id);
}

/** The expiry sweep: stale proposals become `expired` (the trigger audits each one). */
export async function expireStaleIntents(db: Db, now: Date, limit = 500): Promise<number> {
  const rows = await db
    .update(intents)
    .set({ status: 'expired', lastActor: 'system:expiry' })
    .where(
      inArray(
        intents.id,
        sql`(select id from pay_intents where status = 'proposed' and expires_at <= ${now.toISOString()}::timestamptz limit ${limit} for update skip locked)`,
      ),
    )
    .returning({ id: intents.id });
  return rows.length;
}
