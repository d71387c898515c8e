import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { formatUnits } from '../domain/amount.ts';
import { PaymentsError } from '../errors.ts';
import { findAsset, findWallet, listAssets, walletBalances, type Asset } from '../store/directory-store.ts';
import { buildPage, Cursor, Limit, PageFields, pageStart, READ_ANNOTATIONS, runTool, type PaymentsToolDeps } from './tool-kit.ts';

const AssetSchema = z.object({
  asset_id: z.string(),
  symbol: z.string(),
  name: z.string(),
  kind: z.enum(['cash', 'credit']),
  decimals: z.number().int(),
  chain_id: z.string(),
  description: z.string(),
});

function assetDocument(a: Asset): z.infer<typeof AssetSchema> {
  return { asset_id: a.id, symbol: a.symbol, name: a.name, kind: a.kind as 'cash' | 'credit', decimals: a.decimals, chain_id: a.chainId, description: a.description };
}

export function createAssetTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const list = defineTool({
    name: 'list_assets',
    title: 'List assets',
    description: 'Cash tokens and credit instruments on this chain.',
    inputSchema: z.strictObject({ kind: z.enum(['cash', 'credit']).optional(), limit: Limit, cursor: Cursor }),
    outputSchema: z.object({ chain_id: z.string(), assets: z.array(AssetSchema), ...PageFields }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const paging = { list: 'list_assets', scope: [session.subject, deps.chainId, input.kind ?? null], limit: input.limit, cursor: input.cursor };
        const after = pageStart(paging);
        const rows = await listAssets(deps.handle.db, deps.chainId, { ...(input.kind ? { kind: input.kind } : {}), ...(after ? { after } : {}), limit: input.limit + 1 });
        return buildPage(paging, rows, (a) => a.id, 'assets', assetDocument, { chain_id: deps.chainId });
      }),
  });

  const get = defineTool({
    name: 'get_asset',
    title: 'Get an asset',
    description: "One asset by symbol or id, with your wallet's balance of it when you have a chain account here.",
    inputSchema: z.strictObject({ asset: z.string().min(1).max(100).describe('Symbol (USDC) or asset id.') }),
    outputSchema: z.object({
      asset: AssetSchema,
      balance: z.object({ amount: z.string(), units: z.string(), wallet_address: z.string() }).nullable().describe('null when you have no chain account on this chain.'),
    }),
    annotations: READ_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const asset = await findAsset(deps.handle.db, deps.chainId, input.asset);
        if (!asset) throw new PaymentsError('not_found', `asset: no asset "${input.asset}" on chain ${deps.chainId}`);
        const wallet = await findWallet(deps.handle.db, session.subject, deps.chainId);
        const units = wallet ? ((await walletBalances(deps.handle.db, wallet.id, [asset.id]))[0]?.units ?? 0n) : undefined;
        return {
          asset: assetDocument(asset),
          balance: wallet && units !== undefined ? { amount: formatUnits(units, asset.decimals), units: units.toString(), wallet_address: wallet.address } : null,
        };
      }),
  });

  return [list, get];
}
