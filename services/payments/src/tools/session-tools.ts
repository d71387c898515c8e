import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { formatUnits } from '../domain/amount.ts';
import { SETTLED_STATUSES, type IntentStatus } from '../domain/intent-states.ts';
import { PaymentsError } from '../errors.ts';
import { findWallet, listWorkspaces, walletBalances } from '../store/directory-store.ts';
import { findIntentByMessageIdForParty, findIntentForParty, intentHistory, type IntentRow } from '../store/intent-store.ts';
import { IntentDocumentSchema, intentDocument } from './intent-document.ts';
import { READ_ANNOTATIONS, runTool, type PaymentsToolDeps } from './tool-kit.ts';

/** whoami, intent_status and wait_for_settlement: the caller, and what became of their intents. */
export function createSessionTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const db = deps.handle.db;

  const whoami = defineTool({
    name: 'whoami',
    title: 'Who am I',
    description: 'Your identity on this payments host: user, session kind, chain, chain account and balances, workspaces.',
    inputSchema: z.strictObject({}),
    outputSchema: z.object({
      user_id: z.string(),
      session_kind: z.string(),
      chain_id: z.string(),
      chain_mode: z.enum(['test', 'live']),
      key_id: z.string().nullable(),
      client_id: z.string().nullable(),
      wallet: z
        .object({ wallet_id: z.string(), address: z.string(), balances: z.array(z.object({ asset_id: z.string(), symbol: z.string(), amount: z.string() })) })
        .nullable()
        .describe('null: no chain account on this chain yet; the account holder activates one in the app.'),
      workspaces: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), role: z.string() })),
      can_confirm: z.literal(false).describe('Nothing an agent holds can confirm an intent.'),
    }),
    annotations: READ_ANNOTATIONS,
    handler: (_input, { session }) =>
      runTool(async () => {
        const wallet = await findWallet(db, session.subject, deps.chainId);
        const balances = wallet ? await walletBalances(db, wallet.id) : [];
        return {
          user_id: session.subject,
          session_kind: session.kind,
          chain_id: deps.chainId,
          chain_mode: deps.mode,
          key_id: session.keyId ?? null,
          client_id: session.clientId ?? null,
          wallet: wallet
            ? { wallet_id: wallet.id, address: wallet.address, balances: balances.map((b) => ({ asset_id: b.assetId, symbol: b.symbol, amount: formatUnits(b.units, b.decimals) })) }
            : null,
          workspaces: await listWorkspaces(db, session.subject),
          can_confirm: false as const,
        };
      }),
  });

  const HistorySchema = z.array(z.object({ from: z.string().nullable(), to: z.string(), actor: z.string(), at: z.string(), reason: z.string().nullable() }));
  async function fullDocument(row: IntentRow) {
    const history = (await intentHistory(db, row.id)).map((e) => ({ from: e.fromStatus, to: e.toStatus, actor: e.actor, at: e.at.toISOString(), reason: e.reason }));
    return { ...intentDocument(row, deps.appUrl), history };
  }

  const status = defineTool({
    name: 'intent_status',
    title: 'Intent status',
    description: 'The full intent: proposed → approved → submitting → submitted → completed | failed (or cancelled / expired), with message_id from submitted on and the audit history.',
    inputSchema: z.strictObject({ intent_id: z.uuid(), workspace_id: z.uuid() }),
    outputSchema: IntentDocumentSchema.extend({ history: HistorySchema }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const row = await findIntentForParty(db, input.workspace_id, input.intent_id, session.subject);
        if (!row || row.chainId !== deps.chainId) throw new PaymentsError('not_found', `No intent ${input.intent_id} in workspace ${input.workspace_id} on chain ${deps.chainId}`);
        return fullDocument(row);
      }),
  });

  const wait = defineTool({
    name: 'wait_for_settlement',
    title: 'Wait for settlement',
    description: 'Blocks until the intent with this message_id is completed or failed, or the timeout passes (then settled: false, timed_out: true — call again).',
    inputSchema: z.strictObject({
      message_id: z.string().regex(/^msg_[0-9a-f]{32}$/, 'a message_id from intent_status'),
      timeout_ms: z.number().int().min(0).max(deps.config.waitMaxMs).optional().describe(`Default ${deps.config.waitDefaultMs}, at most ${deps.config.waitMaxMs}.`),
    }),
    outputSchema: z.object({ message_id: z.string(), settled: z.boolean(), timed_out: z.boolean(), status: z.string(), intent: IntentDocumentSchema.extend({ history: HistorySchema }) }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session, signal }) =>
      runTool(async () => {
        const timeoutMs = input.timeout_ms ?? deps.config.waitDefaultMs;
        const deadline = Date.now() + timeoutMs;
        let row = await findIntentByMessageIdForParty(db, input.message_id, session.subject);
        if (!row || row.chainId !== deps.chainId) throw new PaymentsError('not_found', `No intent with message_id ${input.message_id} on chain ${deps.chainId}`);
        const settled = (r: IntentRow) => SETTLED_STATUSES.includes(r.status as IntentStatus);
        while (!settled(row) && Date.now() < deadline && !signal.aborted) {
          // Subscribe, then re-read: a NOTIFY between our read and the subscription is not lost.
          const waiter = deps.waiters.wait(input.message_id, Math.max(0, deadline - Date.now()), signal);
          const fresh = await findIntentByMessageIdForParty(db, input.message_id, session.subject);
          if (fresh && settled(fresh)) {
            waiter.cancel();
            row = fresh;
            break;
          }
          await waiter.settled;
          row = (await findIntentByMessageIdForParty(db, input.message_id, session.subject)) ?? row;
        }
        const done = settled(row);
        return { message_id: input.message_id, settled: done, timed_out: !done, status: row.status, intent: await fullDocument(row) };
      }),
  });

  return [whoami, status, wait];
}
