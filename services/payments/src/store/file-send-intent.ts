import type { Db } from '../../../../shared/db/client.ts';
import { OPEN_STATUSES } from '../domain/intent-states.ts';
import { runPrepared } from './prepared-statement.ts';

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
 * propose_send in ONE statement (one round trip, one implicit transaction): the sender's chain
 * account, the recipient (an address, or a contact with the chain account its address names),
 * the identity hash over the resolved ids, the INSERT … ON CONFLICT DO NOTHING that the two
 * partial unique indexes decide, and — when it did not insert — the open intent that blocked
 * it. The audit row comes from the AFTER INSERT trigger inside the same statement, so no path
 * can file an intent without its `proposed` event.
 *
 * A blocking row that committed after this statement's snapshot is invisible here (blocking is
 * null although nothing was filed); the caller then takes the general path, which reads again.
 */
const FILE_SEND_INTENT = `
with sender as (
  select id, address from pay_wallets where entity_id = $1::uuid and chain_id = $2::text
), contact as (
  select id, name, email, wallet_address from pay_contacts
  where workspace_id = $3::uuid and (id = $4::uuid or email = $5::text)
  order by id limit 1
), recipient as (
  select id, address from pay_wallets
  where chain_id = $2::text and address = coalesce($6::text, (select wallet_address from contact))
), candidate as (
  select s.id as wallet_id, s.address as from_address, r.id as to_wallet_id, r.address as to_address, ct.id as to_contact_id,
         case when ct.id is null then $7::text when coalesce(ct.email, '') <> '' then ct.name || ' <' || ct.email || '>' else ct.name end as to_label,
         'sha256:' || encode(sha256(convert_to($14::text || r.id::text || $15::text || s.id::text || $16::text, 'UTF8')), 'hex') as identity_hash
  from sender s cross join recipient r left join contact ct on true
  where s.id <> r.id
), filed as (
  insert into pay_intents (workspace_id, chain_id, kind, actor_user_id, actor, wallet_id, arguments, request_id, identity_hash, title, rationale, status, last_actor, expires_at)
  select $3::uuid, $2::text, 'send', $1::uuid, $8::jsonb, c.wallet_id,
         $9::jsonb || jsonb_build_object('to_wallet_id', c.to_wallet_id, 'to_address', c.to_address, 'to_label', c.to_label, 'to_contact_id', c.to_contact_id, 'from_address', c.from_address),
         $10::text, c.identity_hash, $11::text, $12::text, 'proposed', 'user:' || $1::text, $13::timestamptz
  from candidate c
  on conflict do nothing
  returning id, workspace_id, status, expires_at, identity_hash
), blocking as (
  select b.id, b.workspace_id, b.status, b.expires_at, b.identity_hash, b.identity_hash = c.identity_hash as same
  from candidate c cross join lateral (
    (select * from pay_intents i where i.identity_hash = c.identity_hash and i.status in ${OPEN} limit 1)
    union all
    (select * from pay_intents i
     where $10::text is not null and i.actor_user_id = $1::uuid and i.chain_id = $2::text and i.workspace_id = $3::uuid
       and i.request_id = $10::text and i.status in ${OPEN} limit 1)
  ) b
  where not exists (select 1 from filed)
  order by same desc
  limit 1
)
select s.id as sender_id, s.address as sender_address,
       ct.id as contact_id, ct.name as contact_name, ct.email as contact_email, ct.wallet_address as contact_wallet_address,
       r.id as recipient_id, r.address as recipient_address,
       c.identity_hash, c.to_label,
       f.id as filed_id, f.workspace_id as filed_workspace_id, f.status as filed_status, f.expires_at as filed_expires_at, f.identity_hash as filed_identity_hash,
       b.id as blocking_id, b.workspace_id as blocking_workspace_id, b.status as blocking_status, b.expires_at as blocking_expires_at,
       b.identity_hash as blocking_identity_hash, b.same as blocking_same
from (select 1) as one
left join sender s on true
left join contact ct on true
left join recipient r on true
left join candidate c on true
left join filed f on true
left join blocking b on true`;

interface Row {
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
  filed_id: string | null;
  filed_workspace_id: string;
  filed_status: string;
  filed_expires_at: Date | string;
  filed_identity_hash: string;
  blocking_id: string | null;
  blocking_workspace_id: string;
  blocking_status: string;
  blocking_expires_at: Date | string;
  blocking_identity_hash: string;
  blocking_same: boolean;
}

export async function fileSendIntent(db: Db, input: SendIntentInput): Promise<SendIntentOutcome> {
  if (input.identityParts.length !== 3) throw new Error('fileSendIntent: the identity template must have exactly two slots');
  const to = input.to;
  const [row] = await runPrepared<Row>(db, FILE_SEND_INTENT, [
    input.actorUserId,
    input.chainId,
    input.workspaceId,
    'contactId' in to ? to.contactId : null,
    'email' in to ? to.email.toLowerCase() : null,
    'address' in to ? to.address.toLowerCase() : null,
    input.toText,
    JSON.stringify(input.actor),
    JSON.stringify(input.staticArguments),
    input.requestId,
    input.title,
    input.rationale,
    input.expiresAt.toISOString(),
    ...input.identityParts,
  ]);
  const r = row!;
  return {
    sender: r.sender_id ? { id: r.sender_id, address: r.sender_address! } : null,
    contact: r.contact_id ? { id: r.contact_id, name: r.contact_name!, email: r.contact_email, walletAddress: r.contact_wallet_address } : null,
    recipient: r.recipient_id ? { id: r.recipient_id, address: r.recipient_address! } : null,
    identityHash: r.identity_hash,
    toLabel: r.to_label,
    filed: r.filed_id
      ? { id: r.filed_id, workspaceId: r.filed_workspace_id, status: r.filed_status, expiresAt: new Date(r.filed_expires_at), identityHash: r.filed_identity_hash }
      : null,
    blocking: r.blocking_id
      ? {
          id: r.blocking_id,
          workspaceId: r.blocking_workspace_id,
          status: r.blocking_status,
          expiresAt: new Date(r.blocking_expires_at),
          identityHash: r.blocking_identity_hash,
          same: r.blocking_same,
        }
      : null,
  };
}
