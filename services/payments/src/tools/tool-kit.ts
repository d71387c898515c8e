import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Session } from '../../../../shared/auth/session.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { codedErrorResult, jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import type { PaymentsConfig } from '../config.ts';
import type { ChainMode } from '../domain/chain.ts';
import { decodeCursor, encodeCursor, scopeDigest } from '../domain/cursor.ts';
import { fitPage, RESULT_MAX_BYTES, resultBytes } from '../domain/result-cap.ts';
import { chainAccountRequired, PaymentsError, paymentsErrorResult } from '../errors.ts';
import { findWallet, type Wallet } from '../store/directory-store.ts';
import type { SettlementWaiters } from '../worker/settlement-waiters.ts';

/** What every payments tool is built with: one chain, one database, an injected clock. */
export interface PaymentsToolDeps {
  readonly handle: DbHandle;
  readonly chainId: string;
  readonly mode: ChainMode;
  /** `{APP_URL}`: the web app (auth's origin) where confirm_url points. */
  readonly appUrl: string;
  readonly authPublicUrl: string;
  readonly config: PaymentsConfig;
  readonly waiters: SettlementWaiters;
  readonly logger: Logger;
  readonly now: () => Date;
}

export const READ_ANNOTATIONS: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
/** Nothing here is destructive: the destructive act is the person's confirmation in the app. */
export const PROPOSAL_ANNOTATIONS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const Limit = z.number().int().min(1).max(100).default(25).describe('Page size, at most 100.');
export const Cursor = z.string().min(1).max(2048).optional().describe('Opaque cursor from a previous next_cursor.');
export const Uuid = z.uuid();

/**
 * Runs a tool body: a returned document becomes the success result (text and
 * structuredContent), a PaymentsError its coded `isError` result. A document over the 256 KiB
 * cap is never sent truncated mid-JSON; list tools trim their page before this point.
 */
export async function runTool(body: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    const document = await body();
    if (resultBytes(document) > RESULT_MAX_BYTES) {
      return codedErrorResult('tool_failed', `The result exceeds the ${RESULT_MAX_BYTES / 1024} KiB cap; narrow the request.`);
    }
    return jsonToolResult(document);
  } catch (err) {
    if (err instanceof PaymentsError) return paymentsErrorResult(err);
    throw err;
  }
}

/** The caller's chain account on this host, or CHAIN_ACCOUNT_REQUIRED naming them and the chain. */
export async function requireWallet(deps: PaymentsToolDeps, session: Session): Promise<Wallet> {
  const wallet = await findWallet(deps.handle.db, session.subject, deps.chainId);
  if (!wallet) throw chainAccountRequired({ kind: 'user', id: session.subject }, deps.chainId, deps.authPublicUrl);
  return wallet;
}

export interface Paging {
  readonly list: string;
  readonly scope: readonly unknown[];
  readonly limit: number;
  readonly cursor: string | undefined;
}

/** Decodes the cursor for this list and scope; a foreign or malformed one is `invalid_params`. */
export function pageStart(paging: Paging): string | undefined {
  if (!paging.cursor) return undefined;
  const decoded = decodeCursor(paging.cursor, paging.list, scopeDigest(paging.scope));
  if (!decoded.ok) {
    throw new PaymentsError(
      'invalid_params',
      decoded.reason === 'foreign' ? `cursor: this cursor was issued for a different list or query; start without a cursor` : 'cursor: malformed cursor',
    );
  }
  return decoded.position.after;
}

/**
 * One page: `rows` was fetched with limit + 1 so we know whether more remain. Items are trimmed
 * further if the page would break the 256 KiB cap; `next_cursor` then resumes after the last
 * item actually returned, so trimming never skips anything.
 */
export function buildPage<T>(
  paging: Paging,
  rows: readonly T[],
  keyOf: (row: T) => string,
  itemsKey: string,
  render: (row: T) => Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const candidates = rows.slice(0, paging.limit);
  const more = rows.length > paging.limit;
  const scope = scopeDigest(paging.scope);
  const rendered = candidates.map(render);
  const fitted = fitPage(rendered, (items, truncated) => {
    const kept = items.length;
    const hasMore = more || kept < candidates.length;
    return {
      ...extra,
      [itemsKey]: items,
      next_cursor: hasMore && kept > 0 ? encodeCursor(paging.list, scope, keyOf(candidates[kept - 1]!)) : null,
      ...(truncated ? { truncated: true } : {}),
    };
  });
  if (!fitted) throw new PaymentsError('tool_failed', `A single item exceeds the ${RESULT_MAX_BYTES / 1024} KiB result cap.`);
  return fitted.document;
}

/** Output schema fragment every list tool shares. */
export const PageFields = {
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null when no more remain.'),
  truncated: z.boolean().optional().describe('Set when items were held back to keep the result under 256 KiB.'),
};
