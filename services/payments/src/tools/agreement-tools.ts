import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { formatUnits } from '../domain/amount.ts';
import { PaymentsError } from '../errors.ts';
import { findAgreement, nextScheduledPayment, scheduleOf, tasksOfAgreement, type Agreement, type ScheduledPayment } from '../store/agreement-store.ts';
import { findContact } from '../store/contact-store.ts';
import { findAsset, listWorkspaces } from '../store/directory-store.ts';
import { taskDocument } from './pipeline-tools.ts';
import { READ_ANNOTATIONS, runTool, type PaymentsToolDeps } from './tool-kit.ts';

const AgreementSchema = z.object({
  agreement_id: z.string(),
  workspace_id: z.string(),
  title: z.string(),
  status: z.string(),
  terms: z.string(),
  counterparty_contact_id: z.string().nullable(),
  created_at: z.string(),
});

const ScheduledSchema = z.object({
  scheduled_payment_id: z.string(),
  due_at: z.string(),
  asset_id: z.string(),
  symbol: z.string(),
  amount: z.string(),
  status: z.string(),
  payment_id: z.string().nullable(),
});

function agreementDocument(a: Agreement) {
  return { agreement_id: a.id, workspace_id: a.workspaceId, title: a.title, status: a.status, terms: a.terms, counterparty_contact_id: a.counterpartyContactId, created_at: a.createdAt.toISOString() };
}

export function createAgreementTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const db = deps.handle.db;
  const symbols = new Map<string, { symbol: string; decimals: number }>();
  async function scheduledDocument(s: ScheduledPayment) {
    let asset = symbols.get(s.assetId);
    if (!asset) {
      const found = await findAsset(db, deps.chainId, s.assetId);
      asset = { symbol: found?.symbol ?? s.assetId, decimals: found?.decimals ?? 0 };
      if (found) symbols.set(s.assetId, asset);
    }
    return { scheduled_payment_id: s.id, due_at: s.dueAt.toISOString(), asset_id: s.assetId, symbol: asset.symbol, amount: formatUnits(BigInt(s.amount), asset.decimals), status: s.status, payment_id: s.paymentId };
  }
  async function load(userId: string, agreementId: string): Promise<Agreement> {
    const workspaces = (await listWorkspaces(db, userId)).map((w) => w.id);
    const agreement = await findAgreement(db, workspaces, agreementId);
    if (!agreement) throw new PaymentsError('not_found', `agreement_id: no agreement ${agreementId} in your workspaces`);
    return agreement;
  }
  const AgreementId = z.strictObject({ agreement_id: z.uuid() });

  const get = defineTool({
    name: 'agreement/get',
    title: 'Get an agreement',
    description: 'One agreement with its payment schedule.',
    inputSchema: AgreementId,
    outputSchema: z.object({ agreement: AgreementSchema, schedule: z.array(ScheduledSchema) }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const agreement = await load(session.subject, input.agreement_id);
        const schedule = await Promise.all((await scheduleOf(db, agreement.id)).map(scheduledDocument));
        return { agreement: agreementDocument(agreement), schedule };
      }),
  });

  const graph = defineTool({
    name: 'agreement/get_graph',
    title: 'Agreement graph',
    description: 'The agreement as a graph: its counterparty, scheduled payments, settled payments and pipeline tasks as nodes, with typed edges.',
    inputSchema: AgreementId,
    outputSchema: z.object({
      agreement_id: z.string(),
      nodes: z.array(z.object({ id: z.string(), type: z.string(), label: z.string(), data: z.record(z.string(), z.unknown()) })),
      edges: z.array(z.object({ from: z.string(), to: z.string(), type: z.string() })),
    }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const agreement = await load(session.subject, input.agreement_id);
        const nodes: Array<{ id: string; type: string; label: string; data: Record<string, unknown> }> = [
          { id: agreement.id, type: 'agreement', label: agreement.title, data: agreementDocument(agreement) },
        ];
        const edges: Array<{ from: string; to: string; type: string }> = [];
        if (agreement.counterpartyContactId) {
          const contact = await findContact(db, agreement.workspaceId, agreement.counterpartyContactId);
          if (contact) {
            nodes.push({ id: contact.id, type: 'contact', label: contact.name, data: { email: contact.email, wallet_address: contact.walletAddress } });
            edges.push({ from: agreement.id, to: contact.id, type: 'counterparty' });
          }
        }
        for (const s of await scheduleOf(db, agreement.id)) {
          const doc = await scheduledDocument(s);
          nodes.push({ id: s.id, type: 'scheduled_payment', label: `${doc.amount} ${doc.symbol} due ${doc.due_at.slice(0, 10)}`, data: doc });
          edges.push({ from: agreement.id, to: s.id, type: 'schedules' });
          if (s.paymentId) {
            nodes.push({ id: s.paymentId, type: 'payment', label: `payment ${s.paymentId}`, data: {} });
            edges.push({ from: s.id, to: s.paymentId, type: 'settled_by' });
          }
        }
        for (const t of await tasksOfAgreement(db, agreement.id)) {
          nodes.push({ id: t.id, type: 'task', label: t.title, data: taskDocument(t) });
          edges.push({ from: agreement.id, to: t.id, type: 'has_task' });
        }
        return { agreement_id: agreement.id, nodes, edges };
      }),
  });

  const next = defineTool({
    name: 'agreement/next_scheduled_payment',
    title: 'Next scheduled payment',
    description: 'The next payment due under an agreement, or null when nothing is scheduled.',
    inputSchema: AgreementId,
    outputSchema: z.object({ agreement_id: z.string(), next: ScheduledSchema.nullable() }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const agreement = await load(session.subject, input.agreement_id);
        const found = await nextScheduledPayment(db, agreement.id, deps.now());
        return { agreement_id: agreement.id, next: found ? await scheduledDocument(found) : null };
      }),
  });

  return [get, graph, next];
}
