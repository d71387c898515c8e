import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import { receiptHash, type ReceiptBody, type RuntimeState } from '../domain/receipt.ts';
import type { GatewayRequestContext } from '../mcp/gateway-tool-server.ts';
import type { ReceiptSigner } from '../routing/receipt-signer.ts';
import type { ReceiptWriter } from '../routing/receipt-writer.ts';
import { findReceipts, type ReceiptRow } from '../store/receipt-store.ts';

const ReceiptRef = z.union([z.string().max(100), z.looseObject({ receipt_id: z.string().max(100) })]);

export const ValidateTaskResultInput = z.strictObject({
  receipts: z.array(z.union([ReceiptRef, z.looseObject({ _gateway: z.looseObject({ receipt_id: z.string().max(100) }) })])).min(1).max(200),
  claims: z.array(z.unknown()).max(500).optional(),
  coverage: z.array(z.unknown()).max(200).optional(),
  route_id: z.string().max(200).optional(),
});

const Claim = z.strictObject({ statement: z.string().min(1).max(2000), receipt_ids: z.array(z.string()).min(1).max(50), caveat: z.string().max(2000).optional() });
const Coverage = z
  .strictObject({ phase: z.string().min(1).max(200), status: z.enum(['covered', 'partial', 'gap']), receipt_ids: z.array(z.string()).max(50).optional(), note: z.string().max(2000).optional() })
  .refine((c) => c.status === 'gap' || (c.receipt_ids?.length ?? 0) > 0, { message: 'a covered or partial phase cites at least one receipt' })
  .refine((c) => c.status !== 'gap' || Boolean(c.note), { message: 'a gap says why in note' });

/** The fields a caller may have copied from `_gateway`; each must equal the stored receipt. */
const COMPARED_FIELDS = ['upstream', 'tool', 'observed_at', 'cache_age_ms', 'input_sha256', 'result_sha256', 'runtime_state', 'prev_hash', 'receipt_hash', 'signature', 'task_id'] as const;

function bodyOf(row: ReceiptRow): ReceiptBody {
  return {
    receipt_id: row.id,
    subject: row.subject,
    task_id: row.taskId,
    upstream: row.upstream,
    tool: row.tool,
    observed_at: new Date(row.observedAt).toISOString(),
    cache_age_ms: row.cacheAgeMs,
    input_sha256: row.inputSha256,
    result_sha256: row.resultSha256,
    runtime_state: row.runtimeState as RuntimeState,
    prev_hash: row.prevHash,
  };
}

/**
 * `validate_task_result`: proves the receipts, checks the report's shape. Each receipt must
 * exist, belong to the caller, match every field the caller copied, hash to its stored hash and
 * carry a valid gateway signature — so an invented or edited receipt fails. Claims must cite
 * receipts that passed; coverage must say, per phase, what was covered or why not.
 */
export function createValidateTaskResult(deps: { db: DbHandle; signer: ReceiptSigner; receipts: Pick<ReceiptWriter, 'settled'> }) {
  return async function validateTaskResult(args: z.infer<typeof ValidateTaskResultInput>, ctx: GatewayRequestContext): Promise<CallToolResult> {
    const refs = args.receipts.map((r) => (typeof r === 'string' ? { receipt_id: r } : '_gateway' in r && r._gateway ? (r._gateway as Record<string, unknown>) : (r as Record<string, unknown>)));
    const ids = refs.map((r) => String(r.receipt_id));
    const uuidLike = ids.filter((id) => z.uuid().safeParse(id).success);
    // With GATEWAY_RECEIPT_FLUSH=after_answer on PGlite a receipt may be answered but not yet
    // inserted; without this a caller's own fresh receipt would read as not_found.
    await deps.receipts.settled();
    const rows = new Map((await findReceipts(deps.db, uuidLike)).map((r) => [r.id, r]));
    const valid = new Set<string>();
    const receiptResults = [];
    for (const ref of refs) {
      const id = String(ref.receipt_id);
      const problems: string[] = [];
      const row = rows.get(id);
      // Another caller's receipt reads exactly like one that never existed.
      if (!row || row.subject !== ctx.session.subject) problems.push('not_found');
      else {
        const body = bodyOf(row);
        const stored: Record<string, unknown> = { ...body, receipt_hash: row.receiptHash, signature: row.signature };
        for (const field of COMPARED_FIELDS) {
          if (!(field in ref)) continue;
          const given = field === 'observed_at' && typeof ref[field] === 'string' ? new Date(ref[field] as string).toISOString() : ref[field];
          if (given !== stored[field]) problems.push(`altered:${field}`);
        }
        if (receiptHash(body) !== row.receiptHash) problems.push('hash_mismatch');
        if (!(await deps.signer.verify(row.receiptHash, row.signature))) problems.push('bad_signature');
      }
      if (problems.length === 0) valid.add(id);
      receiptResults.push({ receipt_id: id, valid: problems.length === 0, ...(problems.length ? { problems } : {}) });
    }

    const claimResults = (args.claims ?? []).map((c, i) => {
      const parsed = Claim.safeParse(c);
      if (!parsed.success) return { index: i, valid: false, problems: parsed.error.issues.map((x) => `${x.path.join('.') || 'claim'}: ${x.message}`) };
      const missing = parsed.data.receipt_ids.filter((id) => !valid.has(id));
      return { index: i, valid: missing.length === 0, ...(missing.length ? { problems: missing.map((id) => `cites unproven receipt ${id}`) } : {}) };
    });
    const coverageResults = (args.coverage ?? []).map((c, i) => {
      const parsed = Coverage.safeParse(c);
      if (!parsed.success) return { index: i, valid: false, problems: parsed.error.issues.map((x) => `${x.path.join('.') || 'coverage'}: ${x.message}`) };
      const missing = (parsed.data.receipt_ids ?? []).filter((id) => !valid.has(id));
      return { index: i, valid: missing.length === 0, ...(missing.length ? { problems: missing.map((id) => `cites unproven receipt ${id}`) } : {}) };
    });
    const allValid = receiptResults.every((r) => r.valid) && claimResults.every((r) => r.valid) && coverageResults.every((r) => r.valid);
    return jsonToolResult({
      valid: allValid,
      ...(args.route_id ? { route_id: args.route_id } : {}),
      receipts: receiptResults,
      claims: claimResults,
      coverage: coverageResults,
      note: 'Receipts prove what the gateway returned and when it first observed it; they do not prove the upstream data was fresh.',
    });
  };
}
