import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log.ts';
import { extractCredential, type Guard } from './guard.ts';
import { guardFailureToWire } from './guard-failure-to-wire.ts';
import { protectedResourceMetadataUrl } from './protected-resource-metadata.ts';
import type { Session } from './session.ts';

const SESSION = Symbol('gatehouse.session');

export function sessionOf(req: Request): Session {
  const session = (req as unknown as Record<symbol, Session | undefined>)[SESSION];
  if (!session) throw new Error('sessionOf called on a request the guard did not admit');
  return session;
}

/** Express adapter over the framework-free guard: header in, status and body out. */
export function requireBearer(guard: Guard, logger: Logger): RequestHandler {
  const metadataUrl = protectedResourceMetadataUrl(guard.resource);
  return async (req, res, next) => {
    const apiKeyHeader = req.headers['x-api-key'];
    const credential = extractCredential(req.headers.authorization, Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader);
    const result = await guard.authenticate(credential ?? (credential === null ? '' : undefined));
    if (result.ok) {
      (req as unknown as Record<symbol, Session>)[SESSION] = result.session;
      next();
      return;
    }
    logger.info({ reason: result.failure.reason, detail: 'detail' in result.failure ? result.failure.detail : undefined, path: req.path }, 'request not admitted');
    const answer = guardFailureToWire(result.failure, guard.resource, metadataUrl);
    res.status(answer.status).set(answer.headers).json(answer.body);
  };
}
