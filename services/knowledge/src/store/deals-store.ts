import { sql } from 'drizzle-orm';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { kbDealParties, kbDeals } from './schema.ts';

export interface DealRow {
  readonly id: string;
  readonly workspaceId: string | null;
  readonly title: string;
  readonly status: string;
  readonly summary: string;
  readonly terms: Record<string, unknown>;
  readonly role: string;
  readonly parties: Array<{ user_id: string; role: string }>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Store-level authorisation: every read joins the caller's party row, so a non-party sees nothing. */
const DEAL_COLUMNS = sql`
  d.id::text as id, d.workspace_id::text as "workspaceId", d.title, d.status, d.summary, d.terms, me.role,
  (select coalesce(json_agg(json_build_object('user_id', p.user_id, 'role', p.role) order by p.role, p.user_id), '[]'::json)
     from kb_deal_parties p where p.deal_id = d.id) as parties,
  d.created_at as "createdAt", d.updated_at as "updatedAt"`;

export function createDealsStore(handle: DbHandle) {
  const { db } = handle;
  return {
    async list(userId: string, limit: number, offset: number, status?: string): Promise<DealRow[]> {
      return handle.rows<DealRow>(sql`
        select ${DEAL_COLUMNS} from kb_deals d join kb_deal_parties me on me.deal_id = d.id and me.user_id = ${userId}
        ${status ? sql`where d.status = ${status}` : sql``}
        order by d.updated_at desc, d.id limit ${limit} offset ${offset}`);
    },

    async get(dealId: string, userId: string): Promise<DealRow | undefined> {
      const rows = await handle.rows<DealRow>(sql`
        select ${DEAL_COLUMNS} from kb_deals d join kb_deal_parties me on me.deal_id = d.id and me.user_id = ${userId}
        where d.id = ${dealId}`);
      return rows[0];
    },

    /** Records a deal and its parties (used by the internal deal workflow and by tests). */
    async create(input: { title: string; status: string; summary?: string; terms?: Record<string, unknown>; workspaceId?: string; parties: Array<{ userId: string; role: string }> }): Promise<string> {
      return db.transaction(async (tx) => {
        const [deal] = await tx
          .insert(kbDeals)
          .values({ title: input.title, status: input.status, summary: input.summary ?? '', terms: input.terms ?? {}, workspaceId: input.workspaceId ?? null })
          .returning({ id: kbDeals.id });
        await tx.insert(kbDealParties).values(input.parties.map((p) => ({ dealId: deal.id, userId: p.userId, role: p.role })));
        return deal.id;
      });
    },
  };
}

export type DealsStore = ReturnType<typeof createDealsStore>;
