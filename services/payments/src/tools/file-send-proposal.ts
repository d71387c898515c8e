import { z } from 'zod';
import type { Session } from '../../../../shared/auth/session.ts';
import { IdentitySlot, intentIdentityHash, intentIdentityTemplate } from '../domain/identity-hash.ts';
import { INTENT_TTL_MS } from '../domain/intent-states.ts';
import { WALLET_ADDRESS_PATTERN } from '../domain/wallet-address.ts';
import { chainAccountRequired, PaymentsError } from '../errors.ts';
import type { Asset } from '../store/directory-store.ts';
import type { SendRecipientRef } from '../store/file-send-intent.ts';
import { createSendIntentBatcher, type SendIntentBatcher } from '../store/send-intent-batcher.ts';
import { fileIntent } from '../store/intent-store.ts';
import { fileProposal, intentConflict, money, proposalResult, resolveAsset, resolveSendParties, resolveUnits, sessionActor } from './file-proposal.ts';
import type { PaymentsToolDeps } from './tool-kit.ts';

export interface SendProposalInput {
  readonly workspaceId: string;
  readonly asset: string;
  readonly amount: string;
  readonly to: string;
  readonly request_id?: string | undefined;
  readonly title?: string | undefined;
  readonly rationale?: string | undefined;
}

/** One batcher per database handle (per process): concurrent proposals share statements. */
const batchers = new WeakMap<object, SendIntentBatcher>();
function batcherFor(deps: PaymentsToolDeps): SendIntentBatcher {
  let batcher = batchers.get(deps.handle);
  if (!batcher) batchers.set(deps.handle, (batcher = createSendIntentBatcher(deps.handle.db)));
  return batcher;
}

const Uuid = z.uuid();

function recipientRef(to: string): SendRecipientRef | undefined {
  if (WALLET_ADDRESS_PATTERN.test(to)) return { address: to };
  if (Uuid.safeParse(to).success) return { contactId: to };
  return to.includes('@') ? { email: to } : undefined;
}

/**
 * propose_send. The usual case — a known asset, a well-formed amount, a recognisable `to` — is
 * one database statement (store/file-send-intent.ts), shared with the proposals that arrive
 * alongside it (store/send-intent-batcher.ts). Anything else, and the rare outcomes of
 * that statement (a blocking intent it could not see, or one past its expiry that the sweep
 * has not reached), goes through the general path, which reads again and owns those rules, so
 * both paths give the same answer and the same errors in the same order (CHAIN_ACCOUNT_REQUIRED,
 * then asset and amount, then the recipient).
 */
export async function fileSendProposal(deps: PaymentsToolDeps, session: Session, input: SendProposalInput): Promise<Record<string, unknown>> {
  const ref = recipientRef(input.to);
  let priced: { asset: Asset; units: bigint } | undefined;
  try {
    const asset = await resolveAsset(deps, input.asset, 'asset');
    priced = { asset, units: resolveUnits(asset, input.amount, 'amount') };
  } catch (err) {
    if (!(err instanceof PaymentsError)) throw err;
  }
  if (!priced || !ref) return fileSendProposalInSteps(deps, session, input);

  const { asset, units } = priced;
  const requestId = input.request_id ?? null;
  const identityArgs = { asset_id: asset.id, amount_units: units.toString(), to_wallet_id: new IdentitySlot('to_wallet_id') };
  const template = intentIdentityTemplate({
    kind: 'send',
    arguments: identityArgs,
    actorUserId: session.subject,
    chainId: deps.chainId,
    walletId: new IdentitySlot('wallet_id'),
    workspaceId: input.workspaceId,
    requestId,
  });
  if (template.slots.join() !== 'to_wallet_id,wallet_id') throw new Error(`identity template slots out of order: ${template.slots.join()}`);
  const now = deps.now();
  const outcome = await batcherFor(deps).file({
    actorUserId: session.subject,
    chainId: deps.chainId,
    workspaceId: input.workspaceId,
    to: ref,
    toText: input.to,
    actor: sessionActor(session),
    staticArguments: { ...money(asset, units), asset_id: asset.id, amount_units: units.toString() },
    requestId,
    title: input.title ?? '',
    rationale: input.rationale ?? '',
    expiresAt: new Date(now.getTime() + INTENT_TTL_MS),
    identityParts: template.parts,
  });

  const { sender, contact, recipient } = outcome;
  if (!sender) throw chainAccountRequired({ kind: 'user', id: session.subject }, deps.chainId, deps.authPublicUrl);
  if ('address' in ref) {
    if (!recipient) throw new PaymentsError('not_found', `to: no chain account ${input.to.toLowerCase()} on chain ${deps.chainId}`);
  } else {
    if (!contact) throw new PaymentsError('not_found', `to: no contact "${input.to}" in this workspace (use a contact id, a contact's email, or a wallet address)`);
    if (!contact.walletAddress) throw new PaymentsError('not_found', `to: contact ${contact.name} has no wallet address`);
    if (!recipient) throw new PaymentsError('not_found', `to: no chain account ${contact.walletAddress} on chain ${deps.chainId}`);
  }
  if (recipient.id === sender.id) throw new PaymentsError('invalid_params', 'to: that is your own wallet');

  if (outcome.filed) return proposalResult(deps, outcome.filed, true);
  const blocking = outcome.blocking;
  // An unswept proposal past its 15 minutes blocks nothing; the general path expires it and files.
  if (blocking && !(blocking.status === 'proposed' && blocking.expiresAt <= now)) {
    if (blocking.same) return proposalResult(deps, blocking, false);
    throw intentConflict(requestId, blocking.id);
  }
  const filled = { ...identityArgs, to_wallet_id: recipient.id };
  const identityHash = intentIdentityHash({ kind: 'send', arguments: filled, actorUserId: session.subject, chainId: deps.chainId, walletId: sender.id, workspaceId: input.workspaceId, requestId });
  // Both paths must agree on the identity, or a retried proposal would file a second intent.
  if (identityHash !== outcome.identityHash) throw new Error(`identity hash mismatch: ${identityHash} (code) vs ${outcome.identityHash} (database)`);
  const settled = await fileIntent(
    deps.handle.db,
    {
      workspaceId: input.workspaceId,
      chainId: deps.chainId,
      kind: 'send',
      actorUserId: session.subject,
      actor: sessionActor(session),
      walletId: sender.id,
      arguments: { ...money(asset, units), to_address: recipient.address, to_label: outcome.toLabel, to_contact_id: contact?.id ?? null, ...filled, from_address: sender.address },
      requestId,
      identityHash,
      title: input.title ?? '',
      rationale: input.rationale ?? '',
      expiresAt: new Date(now.getTime() + INTENT_TTL_MS),
    },
    now,
  );
  if (settled.kind === 'request_conflict') throw intentConflict(requestId, settled.intent.id);
  return proposalResult(deps, settled.intent, settled.kind === 'created');
}

/** The general path: read the parties, then file (the same code every propose_* uses). */
async function fileSendProposalInSteps(deps: PaymentsToolDeps, session: Session, input: SendProposalInput): Promise<Record<string, unknown>> {
  const { wallet, asset, units, to } = await resolveSendParties(deps, session, input);
  if (to.wallet.id === wallet.id) throw new PaymentsError('invalid_params', 'to: that is your own wallet');
  return fileProposal(deps, session, {
    kind: 'send',
    wallet,
    workspaceId: input.workspaceId,
    identityArgs: { asset_id: asset.id, amount_units: units.toString(), to_wallet_id: to.wallet.id },
    displayArgs: { ...money(asset, units), to_address: to.wallet.address, to_label: to.label, to_contact_id: to.contactId },
    common: input,
  });
}
