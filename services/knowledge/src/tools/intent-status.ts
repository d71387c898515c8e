import { z } from 'zod';
import { DealReadError } from '../errors.ts';
import { dealReadTool } from './deal-read-tool.ts';
import { READ_ONLY } from './knowledge-tool.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z.object({ intent_id: z.uuid(), workspace_id: z.uuid() }).strict();
const Output = z.looseObject({ intent_id: z.string(), status: z.string() });
const OboReply = z.object({ access_token: z.string().min(1) });

/**
 * Reads an intent from the payments service, never its tables: mint an on-behalf-of token at
 * auth for the payments resource (the caller's bearer never leaves this host), then GET the
 * intent with it. Payments authorises the read, so an intent outside the caller's view is its 404,
 * which we pass on as not_found without saying whether it exists.
 */
export function createIntentStatusTool(deps: KnowledgeToolDeps) {
  const payments = deps.config.services['payments-test'];
  const timeoutMs = deps.knowledge.downstreamTimeoutMs;

  async function call(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await deps.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      deps.logger.warn({ err, url }, `${what} unreachable`);
      throw new DealReadError('downstream_failed', `The ${what} could not be reached; retry shortly.`);
    }
  }

  return dealReadTool(deps, {
    name: 'intent_status',
    title: 'Status of a financial intent',
    description: 'proposed → approved → submitting → submitted → completed | failed (or cancelled / expired) for an intent you are party to. Anything else is not_found.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const obo = await call(
        `${deps.config.authInternalUrl}/auth/obo`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subject_token: ctx.session.sessionToken, audience: payments.resource }) },
        'authorization service',
      );
      if (!obo.ok) {
        deps.logger.warn({ status: obo.status }, 'on-behalf-of token refused');
        throw new DealReadError('downstream_failed', 'An on-behalf-of token for the payments service could not be obtained.');
      }
      const token = OboReply.safeParse(await obo.json().catch(() => undefined));
      if (!token.success) throw new DealReadError('downstream_failed', 'The authorization service answered an unexpected document.');
      const url = `${payments.publicUrl}/internal/intents/${encodeURIComponent(input.workspace_id)}/${encodeURIComponent(input.intent_id)}`;
      const res = await call(url, { headers: { authorization: `Bearer ${token.data.access_token}`, accept: 'application/json' } }, 'payments service');
      // 403 reads as 404 too: whether an intent exists outside the caller's view is not disclosed.
      if (res.status === 404 || res.status === 403) throw new DealReadError('not_found', `No intent ${input.intent_id} in workspace ${input.workspace_id}.`);
      if (!res.ok) {
        deps.logger.warn({ status: res.status }, 'payments intent read failed');
        throw new DealReadError('downstream_failed', `The payments service answered ${res.status}.`);
      }
      const intent = Output.safeParse(await res.json().catch(() => undefined));
      if (!intent.success) throw new DealReadError('downstream_failed', 'The payments service answered an unexpected document.');
      return intent.data;
    },
  });
}
