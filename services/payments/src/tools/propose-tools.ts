import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../shared/mcp/tool.ts';
import { PaymentsError } from '../errors.ts';
import { findAsset } from '../store/directory-store.ts';
import { findPaymentTo, findSwapFor } from '../store/payment-store.ts';
import { ProposalResultSchema } from './intent-document.ts';
import { Amount, fileProposal, money, ProposalCommon, resolveAsset, resolveRecipient, resolveUnits, resolveWorkspace } from './file-proposal.ts';
import { fileSendProposal } from './file-send-proposal.ts';
import { PROPOSAL_ANNOTATIONS, requireWallet, runTool, type PaymentsToolDeps } from './tool-kit.ts';

const CONFIRM_NOTE = ' Nothing moves until the account holder confirms at confirm_url; the intent expires 15 minutes after filing.';

export function createProposeTools(deps: PaymentsToolDeps): ToolDefinition<any>[] {
  const proposeSend = defineTool({
    name: 'propose_send',
    title: 'Propose a payment',
    description: `Propose sending an amount of an asset from your wallet to a contact (id or email) or a wallet address. The recipient accepts it later.${CONFIRM_NOTE}`,
    inputSchema: z.strictObject({
      asset: z.string().min(1).max(100).describe('Asset symbol (USDC) or asset id.'),
      amount: Amount,
      to: z.string().min(1).max(320).describe('A contact id, the email of a known contact, or a 0x wallet address.'),
      ...ProposalCommon,
    }),
    outputSchema: ProposalResultSchema,
    annotations: PROPOSAL_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        // No round trip for the personal workspace; then one statement resolves and files.
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        return fileSendProposal(deps, session, { ...input, workspaceId });
      }),
  });

  const proposeAccept = defineTool({
    name: 'propose_accept',
    title: 'Propose accepting a payment',
    description: `Propose accepting a pending payment addressed to your wallet, moving it from escrow into your balance.${CONFIRM_NOTE}`,
    inputSchema: z.strictObject({ payment_id: z.uuid().describe('The pending payment addressed to you.'), ...ProposalCommon }),
    outputSchema: ProposalResultSchema,
    annotations: PROPOSAL_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const wallet = await requireWallet(deps, session);
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        const payment = await findPaymentTo(deps.handle.db, input.payment_id, wallet.id);
        if (!payment) throw new PaymentsError('not_found', `payment_id: no payment ${input.payment_id} addressed to you on chain ${deps.chainId}`);
        if (payment.status !== 'pending') throw new PaymentsError('invalid_params', `payment_id: payment ${payment.id} is already ${payment.status}`);
        const asset = (await findAsset(deps.handle.db, deps.chainId, payment.assetId))!;
        return fileProposal(deps, session, {
          kind: 'accept',
          wallet,
          workspaceId,
          identityArgs: { payment_id: payment.id },
          displayArgs: { ...money(asset, BigInt(payment.amount)) },
          common: input,
        });
      }),
  });

  const proposeSwap = defineTool({
    name: 'propose_swap_credit_for_cash',
    title: 'Propose a credit-for-cash swap',
    description: `Propose swapping a credit instrument you hold for cash from a counterparty. Leg one escrows your credit; the counterparty completes the swap with propose_complete_swap.${CONFIRM_NOTE}`,
    inputSchema: z.strictObject({
      credit_asset: z.string().min(1).max(100).describe('The credit instrument you give (symbol or id).'),
      credit_amount: Amount,
      cash_asset: z.string().min(1).max(100).describe('The cash token you receive (symbol or id).'),
      cash_amount: Amount,
      counterparty: z.string().min(1).max(320).describe('A contact id, the email of a known contact, or a 0x wallet address.'),
      ...ProposalCommon,
    }),
    outputSchema: ProposalResultSchema,
    annotations: PROPOSAL_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const wallet = await requireWallet(deps, session);
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        const credit = await resolveAsset(deps, input.credit_asset, 'credit_asset', 'credit');
        const cash = await resolveAsset(deps, input.cash_asset, 'cash_asset', 'cash');
        const creditUnits = resolveUnits(credit, input.credit_amount, 'credit_amount');
        const cashUnits = resolveUnits(cash, input.cash_amount, 'cash_amount');
        const counterparty = await resolveRecipient(deps, workspaceId, input.counterparty, 'counterparty');
        if (counterparty.wallet.id === wallet.id) throw new PaymentsError('invalid_params', 'counterparty: that is your own wallet');
        return fileProposal(deps, session, {
          kind: 'swap_credit_for_cash',
          wallet,
          workspaceId,
          identityArgs: {
            credit_asset_id: credit.id,
            credit_units: creditUnits.toString(),
            cash_asset_id: cash.id,
            cash_units: cashUnits.toString(),
            counterparty_wallet_id: counterparty.wallet.id,
          },
          displayArgs: {
            gives: money(credit, creditUnits),
            receives: money(cash, cashUnits),
            counterparty_address: counterparty.wallet.address,
            counterparty_label: counterparty.label,
          },
          common: input,
        });
      }),
  });

  const proposeCompleteSwap = defineTool({
    name: 'propose_complete_swap',
    title: 'Propose completing a swap',
    description: `Propose completing an open credit-for-cash swap where you are the counterparty: you pay the cash and receive the escrowed credit.${CONFIRM_NOTE}`,
    inputSchema: z.strictObject({ swap_id: z.uuid().describe('The open swap naming you as counterparty.'), ...ProposalCommon }),
    outputSchema: ProposalResultSchema,
    annotations: PROPOSAL_ANNOTATIONS,
    handler: (input, { session }) =>
      runTool(async () => {
        const wallet = await requireWallet(deps, session);
        const workspaceId = await resolveWorkspace(deps, session, input.working_group_id);
        const swap = await findSwapFor(deps.handle.db, input.swap_id, wallet.id);
        if (!swap) throw new PaymentsError('not_found', `swap_id: no swap ${input.swap_id} naming you as counterparty on chain ${deps.chainId}`);
        if (swap.status !== 'open') throw new PaymentsError('invalid_params', `swap_id: swap ${swap.id} is already ${swap.status}`);
        const credit = (await findAsset(deps.handle.db, deps.chainId, swap.creditAssetId))!;
        const cash = (await findAsset(deps.handle.db, deps.chainId, swap.cashAssetId))!;
        return fileProposal(deps, session, {
          kind: 'complete_swap',
          wallet,
          workspaceId,
          identityArgs: { swap_id: swap.id },
          displayArgs: { pays: money(cash, BigInt(swap.cashAmount)), receives: money(credit, BigInt(swap.creditAmount)) },
          common: input,
        });
      }),
  });

  return [proposeSend, proposeAccept, proposeSwap, proposeCompleteSwap];
}
