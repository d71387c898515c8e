import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../log.ts';
import { extractCredential, type Guard } from './guard.ts';
import { guardFailureToWire, type WireAnswer } from './guard-failure-to-wire.ts';
import { protectedResourceMetadataUrl } from './protected-resource-metadata.ts';
import type { Session } from './session.ts';

export type Admission = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly answer: WireAnswer };

/**
 * The guard over a request's headers, framework-free: Authorization (or X-API-Key) in, a session
 * or the exact wire answer out. Both the express middleware and the MCP front door use it, so
 * there is one admission rule whichever way a request arrives.
 */
export function requestAuthenticator(guard: Guard, logger: Logger): (headers: IncomingHttpHeaders, path: string) => Promise<Admission> {
  const metadataUrl = protectedResourceMetadataUrl(guard.resource);
  return async (headers, path) => {
    const apiKeyHeader = headers['x-api-key'];
    const credential = extractCredential(headers.authorization, Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader);
    const result = await guard.authenticate(credential ?? (credential === null ? '' : undefined));
    if (result.ok) return { ok: true, session: result.session };
    logger.info({ reason: result.failure.reason, detail: 'detail' in result.failure ? result.failure.detail : undefined, path }, 'request not admitted');
    return { ok: false, answer: guardFailureToWire(result.failure, guard.resource, metadataUrl) };
  };
}
