import type { Db } from '../../../../shared/db/client.ts';
import { OPEN_STATUSES } from '../domain/intent-states.ts';
import { runPrepared } from '../../../../shared/db/prepared-statement.ts';

/** How propose_send names its recipient; the tool has already told the forms apart. */
export type SendRecipientRef = { readonly address: string } | { readonly contactId: string } | { readonly email: string };

export interface SendIntentInput {
  readonly actorUserId: string;
  readonly chainId: string;
  readonly workspaceId: string;
  readonly to: SendRecipientRef;
  /** The raw `to` (the label when it is an address). */
  readonly toText: string;
  readonly actor: Record<string, unknown>;
  /** The arguments known before the database answers (asset and amount); the statement adds the parties. */
  readonly staticArguments: Record<string, unknown>;
  readonly requestId: string | null;
  readonly title: string;
  readonly rationale: string;
  readonly expiresAt: Date;
  /** `intentIdentityTemplate` cut at `to_wallet_id` then `wallet` (three parts). */
  readonly identityParts: readonly string[];
}

interface IntentHead {
  readonly id: string;
  readonly workspaceId: string;
  readonly status: string;
  readonly expiresAt: Date;
  readonly identityHash: string;
}

/** Everything the one statement learned; the tool names any failure from it. */
export interface SendIntentOutcome {
  readonly sender: { readonly id: string; readonly address: string } | null;
  readonly contact: { readonly id: string; readonly name: string; readonly email: string | null; readonly walletAddress: string | null } | null;
  readonly recipient: { readonly id: string; readonly address: string } | null;
  /** The identity hash the database computed (null when there was nothing to file). */
  readonly identityHash: string | null;
  readonly toLabel: string | null;
  readonly filed: IntentHead | null;
  /** When not filed: the open intent that blocked it, `same` identity or the same request_id. */
  readonly blocking: (IntentHead & { readonly same: boolean }) | null;
}

const OPEN = `(${OPEN_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * propose_send for one or many proposals in ONE statement (one round trip, one implicit
 * transaction, one commit): per proposal the sender's chain account, the recipient (an address,
 * or a contact with the chain account its address names), the identity hash over the resolved
 * ids, the INSERT … ON CONFLICT DO NOTHING that the two partial unique indexes decide, and —
 * when its row was not inserted — the open intent that blocked it. The audit row comes from the
 * AFTER INSERT trigger inside the same statement, so no path can file an intent without its
 * `proposed` event.
 *
 * Several proposals in one statement answer exactly as they would one by one in `ord` order:
 * rows are inserted in that order, so of two identical proposals the first is `created` and the
 * second finds it (through RETURNING: rows written by this statement are not in its snapshot),
 * and a second use of a request_id with other arguments finds the first as its blocker.
 *
 * A blocking row that committed after this statement's snapshot is invisible here (no filed row
 * and no blocker although nothing was inserted); the caller then takes the general path, which
 * reads again.
 */
const FILE_SEND_INTENTS = `
with input as (
  select * from jsonb_to_recordset($2::jsonb) as t(
    ord int, actor uuid, workspace uuid, contact_id uuid, email text, address text, to_text text, actor_json jsonb,
    args jsonb, request_id text, title text, rationale text, expires_at timestamptz, p0 text, p1 text, p2 text)
), sender as (
  select i.ord, w.id, w.address from input i join pay_wallets w on w.entity_id = i.actor and w.chain_id = $1::text
), contact as (
  select distinct on (i.ord) i.ord, c.id, c.name, c.email, c.wallet_address
  from input i join pay_contacts c on c.workspace_id = i.workspace and (c.id = i.contact_id or c.email = i.email)
  order by i.ord, c.id
), recipient as (
  select i.ord, w.id, w.address
  from input i left join contact ct on ct.ord = i.ord
  join pay_wallets w on w.chain_id = $1::text and w.address = coalesce(i.address, ct.wallet_address)
), candidate as (
  select i.*, s.id as wallet_id, s.address as from_address, r.id as to_wallet_id, r.address as to_address, ct.id as to_contact_id,
         case when ct.id is null then i.to_text when coalesce(ct.email, '') <> '' then ct.name || ' <' || ct.email || '>' else ct.name end as to_label,
         'sha256:' || encode(sha256(convert_to(i.p0 || r.id::text || i.p1 || s.id::text || i.p2, 'UTF8')), 'hex') as identity_hash
  from input i join sender s on s.ord = i.ord join recipient r on r.ord = i.ord left join contact ct on ct.ord = i.ord
  where s.id <> r.id
), filed as (
  insert into pay_intents (workspace_id, chain_id, kind, actor_user_id, actor, wallet_id, arguments, request_id, identity_hash, title, rationale, status, last_actor, expires_at)
  select c.workspace, $1::text, 'send', c.actor, c.actor_json, c.wallet_id,
         c.args || jsonb_build_object('to_wallet_id', c.to_wallet_id, 'to_address', c.to_address, 'to_label', c.to_label, 'to_contact_id', c.to_contact_id, 'from_address', c.from_address),
         c.request_id, c.identity_hash, c.title, c.rationale, 'proposed', 'user:' || c.actor::text, c.expires_at
  from candidate c
  order by c.ord
  on conflict do nothing
  returning id, workspace_id, status, expires_at, identity_hash, actor_user_id, request_id
), first_of_identity as (
  select identity_hash, min(ord) as ord from candidate group by identity_hash
), blocking as (
  select distinct on (c.ord) c.ord, b.id, b.workspace_id, b.status, b.expires_at, b.identity_hash, b.same
  from candidate c cross join lateral (
    (select f.id, f.workspace_id, f.status, f.expires_at, f.identity_hash, true as same from filed f where f.identity_hash = c.identity_hash)
    union all
    (select i.id, i.workspace_id, i.status, i.expires_at, i.identity_hash, true from pay_intents i
     where i.identity_hash = c.identity_hash and i.status in ${OPEN} limit 1)
    union all
    (select f.id, f.workspace_id, f.status, f.expires_at, f.identity_hash, false from filed f
     where c.request_id is not null and f.actor_user_id = c.actor and f.workspace_id = c.workspace and f.request_id = c.request_id)
    union all
    (select i.id, i.workspace_id, i.status, i.expires_at, i.identity_hash, false from pay_intents i
     where c.request_id is not null and i.actor_user_id = c.actor and i.chain_id = $1::text and i.workspace_id = c.workspace
       and i.request_id = c.request_id and i.status in ${OPEN} limit 1)
  ) b
  order by c.ord, b.same desc
)
select i.ord, s.id as sender_id, s.address as sender_address,
       ct.id as contact_id, ct.name as contact_name, ct.email as contact_email, ct.wallet_address as contact_wallet_address,
       r.id as recipient_id, r.address as recipient_address,
       c.identity_hash, c.to_label,
       (fi.ord is not null and b.same) as created,
       b.id as blocking_id, b.workspace_id as blocking_workspace_id, b.status as blocking_status, b.expires_at as blocking_expires_at,
       b.identity_hash as blocking_identity_hash, b.same as blocking_same
from input i
left join sender s on s.ord = i.ord
left join contact ct on ct.ord = i.ord
left join recipient r on r.ord = i.ord
left join candidate c on c.ord = i.ord
left join blocking b on b.ord = i.ord
left join first_of_identity fi on fi.ord = i.ord and fi.identity_hash = c.identity_hash
  and exists (select 1 from filed f where f.identity_hash = c.identity_hash)
order by i.ord`;

interface Row {
  ord: number;
  sender_id: string | null;
  sender_address: string | null;
  contact_id: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_wallet_address: string | null;
  recipient_id: string | null;
  recipient_address: string | null;
  identity_hash: string | null;
  to_label: string | null;
  created: boolean | null;
  blocking_id: string | null;
  blocking_workspace_id: string;
  blocking_status: string;
  blocking_expires_at: Date | string;
  blocking_identity_hash: string;
  blocking_same: boolean;
}

/** Files each input (see FILE_SEND_INTENTS); the outcomes come back in input order. */
export async function fileSendIntents(db: Db, chainId: string, inputs: readonly SendIntentInput[]): Promise<SendIntentOutcome[]> {
  const rows = inputs.map((input, ord) => {
    if (input.identityParts.length !== 3) throw new Error('fileSendIntents: the identity template must have exactly two slots');
    if (input.chainId !== chainId) throw new Error('fileSendIntents: one chain per statement');
    const to = input.to;
    return {
      ord,
      actor: input.actorUserId,
      workspace: input.workspaceId,
      contact_id: 'contactId' in to ? to.contactId : null,
      email: 'email' in to ? to.email.toLowerCase() : null,
      address: 'address' in to ? to.address.toLowerCase() : null,
      to_text: input.toText,
      actor_json: input.actor,
      args: input.staticArguments,
      request_id: input.requestId,
      title: input.title,
      rationale: input.rationale,
      expires_at: input.expiresAt.toISOString(),
      p0: input.identityParts[0],
      p1: input.identityParts[1],
      p2: input.identityParts[2],
    };
  });
  const answered = await runPrepared<Row>(db, FILE_SEND_INTENTS, [chainId, JSON.stringify(rows)]);
  if (answered.length !== inputs.length) throw new Error(`fileSendIntents: ${answered.length} answers for ${inputs.length} proposals`);
  return answered.map((r) => {
    const blocking = r.blocking_id
      ? {
          id: r.blocking_id,
          workspaceId: r.blocking_workspace_id,
          status: r.blocking_status,
          expiresAt: new Date(r.blocking_expires_at),
          identityHash: r.blocking_identity_hash,
          same: r.blocking_same,
        }
      : null;
    return {
      sender: r.sender_id ? { id: r.sender_id, address: r.sender_address! } : null,
      contact: r.contact_id ? { id: r.contact_id, name: r.contact_name!, email: r.contact_email, walletAddress: r.contact_wallet_address } : null,
      recipient: r.recipient_id ? { id: r.recipient_id, address: r.recipient_address! } : null,
      identityHash: r.identity_hash,
      toLabel: r.to_label,
      filed: r.created && blocking ? { id: blocking.id, workspaceId: blocking.workspaceId, status: blocking.status, expiresAt: blocking.expiresAt, identityHash: blocking.identityHash } : null,
      blocking: r.created ? null : blocking,
    };
  });
}
