import { z } from 'zod';
import type { Session } from '../../../../shared/auth/session.ts';
import { AMOUNT_PATTERN, formatUnits, parseAmount } from '../domain/amount.ts';
import { intentIdentityHash } from '../domain/identity-hash.ts';
import { INTENT_TTL_MS, type IntentKind } from '../domain/intent-states.ts';
import { WALLET_ADDRESS_PATTERN } from '../domain/wallet-address.ts';
import { chainAccountRequired, PaymentsError } from '../errors.ts';
import { findAsset, findWalletByAddress, membershipRole, type Asset, type Wallet } from '../store/directory-store.ts';
import { findContactWithWallet, findSendParties, type SendRecipient } from '../store/contact-store.ts';
import { fileIntent } from '../store/intent-store.ts';
import { confirmUrl } from './intent-document.ts';
import type { PaymentsToolDeps } from './tool-kit.ts';

/** Arguments every propose_* takes besides its own (seed 001, "Catalog"). */
export const ProposalCommon = {
  request_id: z.string().min(1).max(200).optional().describe('Folded into the identity: a distinct value opens a second, intentionally identical proposal.'),
  working_group_id: z.uuid().optional().describe('The workspace to file the intent in; default your personal workspace. You must be a member.'),
  title: z.string().max(200).optional().describe('What the confirming person reads first.'),
  rationale: z.string().max(4000).optional().describe('Why; shown to the confirming person.'),
};

/** A decimal string, never a JSON number: floats cannot carry money exactly. */
export const Amount = z.string().regex(AMOUNT_PATTERN, 'a positive decimal string such as "12.50"').describe('Decimal string, e.g. "12.50".');

/**
 * Assets found so far, per database and chain. Assets are seeded by migration and no code path
 * changes one, so a found asset is safe to keep; misses are never cached. Saves a round trip on
 * every proposal.
 */
const assetCache = new WeakMap<object, Map<string, Asset>>();

async function findAssetCached(deps: PaymentsToolDeps, asset: string): Promise<Asset | undefined> {
  let byQuery = assetCache.get(deps.handle);
  if (!byQuery) assetCache.set(deps.handle, (byQuery = new Map()));
  const key = `${deps.chainId}\u0000${asset}`;
  const cached = byQuery.get(key);
  if (cached) return cached;
  const found = await findAsset(deps.handle.db, deps.chainId, asset);
  if (found && byQuery.size < 10_000) byQuery.set(key, found);
  return found;
}

export async function resolveAsset(deps: PaymentsToolDeps, asset: string, field: string, kind?: 'cash' | 'credit'): Promise<Asset> {
  const found = await findAssetCached(deps, asset);
  if (!found) throw new PaymentsError('not_found', `${field}: no asset "${asset}" on chain ${deps.chainId}`);
  if (kind && found.kind !== kind) throw new PaymentsError('invalid_params', `${field}: ${found.symbol} is a ${found.kind} asset, expected ${kind}`);
  return found;
}

export function resolveUnits(asset: Asset, amount: string, field: string): bigint {
  const parsed = parseAmount(amount, asset.decimals);
  if (!parsed.ok) {
    const why = parsed.reason === 'too_precise' ? `${asset.symbol} has ${asset.decimals} decimals` : parsed.reason === 'not_positive' ? 'must be greater than zero' : 'malformed';
    throw new PaymentsError('invalid_params', `${field}: ${why}`);
  }
  return parsed.units;
}

/** `to` is a contact id, the email of a known contact, or a wallet address on this chain. */
export async function resolveRecipient(
  deps: PaymentsToolDeps,
  workspaceId: string,
  to: string,
  field: string,
): Promise<{ wallet: Wallet; label: string; contactId: string | null }> {
  const db = deps.handle.db;
  if (WALLET_ADDRESS_PATTERN.test(to)) {
    const address = to.toLowerCase();
    const wallet = await findWalletByAddress(db, deps.chainId, address);
    if (!wallet) throw new PaymentsError('not_found', `${field}: no chain account ${address} on chain ${deps.chainId}`);
    return { wallet, label: to, contactId: null };
  }
  const by = z.uuid().safeParse(to).success ? { id: to } : to.includes('@') ? { email: to } : undefined;
  const found = by && (await findContactWithWallet(db, workspaceId, deps.chainId, by));
  if (!found) throw new PaymentsError('not_found', `${field}: no contact "${to}" in this workspace (use a contact id, a contact's email, or a wallet address)`);
  const { contact, wallet } = found;
  if (!contact.walletAddress) throw new PaymentsError('not_found', `${field}: contact ${contact.name} has no wallet address`);
  if (!wallet) throw new PaymentsError('not_found', `${field}: no chain account ${contact.walletAddress} on chain ${deps.chainId}`);
  return { wallet, label: contact.email ? `${contact.name} <${contact.email}>` : contact.name, contactId: contact.id };
}

/**
 * propose_send's sender wallet, asset and recipient with one database round trip (plus the asset
 * lookup, cached, beside it). Failures keep the documented order: CHAIN_ACCOUNT_REQUIRED, then
 * the asset and amount, then the recipient.
 */
export async function resolveSendParties(
  deps: PaymentsToolDeps,
  session: Session,
  input: { workspaceId: string; asset: string; amount: string; to: string },
): Promise<{ wallet: Wallet; asset: Asset; units: bigint; to: { wallet: Wallet; label: string; contactId: string | null } }> {
  const to = input.to;
  const recipient: SendRecipient | undefined = WALLET_ADDRESS_PATTERN.test(to) ? { address: to } : z.uuid().safeParse(to).success ? { id: to } : to.includes('@') ? { email: to } : undefined;
  const [parties, priced] = await Promise.allSettled([
    findSendParties(deps.handle.db, { entityId: session.subject, chainId: deps.chainId, workspaceId: input.workspaceId, to: recipient }),
    resolveAsset(deps, input.asset, 'asset').then((asset) => ({ asset, units: resolveUnits(asset, input.amount, 'amount') })),
  ]);
  if (parties.status === 'rejected') throw parties.reason;
  if (!parties.value) throw chainAccountRequired({ kind: 'user', id: session.subject }, deps.chainId, deps.authPublicUrl);
  if (priced.status === 'rejected') throw priced.reason;
  const { wallet, contact, recipient: toWallet } = parties.value;
  if (recipient && 'address' in recipient) {
    if (!toWallet) throw new PaymentsError('not_found', `to: no chain account ${to.toLowerCase()} on chain ${deps.chainId}`);
    return { wallet, ...priced.value, to: { wallet: toWallet, label: to, contactId: null } };
  }
  if (!recipient || !contact) throw new PaymentsError('not_found', `to: no contact "${to}" in this workspace (use a contact id, a contact's email, or a wallet address)`);
  if (!contact.walletAddress) throw new PaymentsError('not_found', `to: contact ${contact.name} has no wallet address`);
  if (!toWallet) throw new PaymentsError('not_found', `to: no chain account ${contact.walletAddress} on chain ${deps.chainId}`);
  return { wallet, ...priced.value, to: { wallet: toWallet, label: contact.email ? `${contact.name} <${contact.email}>` : contact.name, contactId: contact.id } };
}

export async function resolveWorkspace(deps: PaymentsToolDeps, session: Session, workingGroupId: string | undefined): Promise<string> {
  if (!workingGroupId || workingGroupId === session.subject) return session.subject;
  // Filing into a workspace you are not in would put your proposal in front of strangers.
  const role = await membershipRole(deps.handle.db, workingGroupId, session.subject);
  if (!role) throw new PaymentsError('intent_refused', `You are not a member of working group ${workingGroupId}`);
  return workingGroupId;
}

export function money(asset: Asset, units: bigint) {
  return { asset_id: asset.id, symbol: asset.symbol, amount: formatUnits(units, asset.decimals), units: units.toString() };
}

/**
 * Files the intent (or finds the open one with the same identity). It pins this host's chain,
 * the caller's wallet and the actor from the validated session — never from arguments.
 */
export async function fileProposal(
  deps: PaymentsToolDeps,
  session: Session,
  input: {
    kind: IntentKind;
    wallet: Wallet;
    workspaceId: string;
    identityArgs: Record<string, unknown>;
    displayArgs: Record<string, unknown>;
    common: { request_id?: string | undefined; title?: string | undefined; rationale?: string | undefined };
  },
): Promise<Record<string, unknown>> {
  const requestId = input.common.request_id ?? null;
  const identityHash = intentIdentityHash({
    kind: input.kind,
    arguments: input.identityArgs,
    actorUserId: session.subject,
    chainId: deps.chainId,
    walletId: input.wallet.id,
    workspaceId: input.workspaceId,
    requestId,
  });
  const now = deps.now();
  const outcome = await fileIntent(
    deps.handle.db,
    {
      workspaceId: input.workspaceId,
      chainId: deps.chainId,
      kind: input.kind,
      actorUserId: session.subject,
      actor: sessionActor(session),
      walletId: input.wallet.id,
      arguments: { ...input.displayArgs, ...input.identityArgs, from_address: input.wallet.address },
      requestId,
      identityHash,
      title: input.common.title ?? '',
      rationale: input.common.rationale ?? '',
      expiresAt: new Date(now.getTime() + INTENT_TTL_MS),
    },
    now,
  );
  if (outcome.kind === 'request_conflict') throw intentConflict(requestId, outcome.intent.id);
  return proposalResult(deps, outcome.intent, outcome.kind === 'created');
}

/** Who filed it, from the validated session — never from arguments. */
export function sessionActor(session: Session): Record<string, unknown> {
  return {
    user_id: session.subject,
    session_kind: session.kind,
    ...(session.keyId ? { key_id: session.keyId } : {}),
    ...(session.clientId ? { client_id: session.clientId } : {}),
  };
}

export function intentConflict(requestId: string | null, intentId: string): PaymentsError {
  return new PaymentsError('intent_conflict', `request_id "${requestId}" is already used by open intent ${intentId} with different arguments`, { intent_id: intentId });
}

/** The answer every propose_* gives. */
export function proposalResult(
  deps: PaymentsToolDeps,
  intent: { id: string; workspaceId: string; status: string; expiresAt: Date; identityHash: string },
  created: boolean,
): Record<string, unknown> {
  return {
    intent_id: intent.id,
    workspace_id: intent.workspaceId,
    status: intent.status,
    expires_at: intent.expiresAt.toISOString(),
    identity_hash: intent.identityHash,
    confirm_url: confirmUrl(deps.appUrl, intent.workspaceId, intent.id),
    created,
  };
}
