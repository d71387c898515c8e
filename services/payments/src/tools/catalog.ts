import type { ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { createAgreementTools } from './agreement-tools.ts';
import { createAssetTools } from './asset-tools.ts';
import { createContactTools } from './contact-tools.ts';
import { createPipelineTools } from './pipeline-tools.ts';
import { createProposeTools } from './propose-tools.ts';
import { createSessionTools } from './session-tools.ts';
import type { PaymentsToolDeps } from './tool-kit.ts';

/**
 * The 19-tool `/mcp` catalog of seed 001, in its order. The seven direct writes (instant send,
 * accept, swaps, connection requests) are absent, not present-but-refusing: calling one is
 * JSON-RPC -32602 Unknown tool, so no handler that could move money exists to be reached.
 */
export const CATALOG = [
  'list_assets',
  'get_asset',
  'list_contacts',
  'get_contact',
  'list_connection_requests',
  'pipeline/list_tasks',
  'pipeline/describe_task',
  'pipeline/propose',
  'pipeline/find_predecessors',
  'agreement/get',
  'agreement/get_graph',
  'agreement/next_scheduled_payment',
  'whoami',
  'wait_for_settlement',
  'propose_send',
  'propose_accept',
  'propose_swap_credit_for_cash',
  'propose_complete_swap',
  'intent_status',
] as const;

export function createPaymentsTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const all = [
    ...createAssetTools(deps),
    ...createContactTools(deps),
    ...createPipelineTools(deps),
    ...createAgreementTools(deps),
    ...createSessionTools(deps),
    ...createProposeTools(deps),
  ];
  const byName = new Map(all.map((t) => [t.name, t]));
  if (byName.size !== CATALOG.length || CATALOG.some((n) => !byName.has(n))) throw new Error('payments catalog drifted from seed 001');
  return CATALOG.map((n) => byName.get(n)!);
}
