import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log.ts';
import { requestAuthenticator } from './authenticate-request.ts';
import type { Guard } from './guard.ts';
import type { Session } from './session.ts';

const SESSION = Symbol('gatehouse.session');

export function sessionOf(req: Request): Session {
  const session = (req as unknown as Record<symbol, Session | undefined>)[SESSION];
  if (!session) throw new Error('sessionOf called on a request the guard did not admit');
  return session;
}

/** Express adapter over the framework-free guard: header in, status and body out. */
export function requireBearer(guard: Guard, logger: Logger): RequestHandler {
  const authenticate = requestAuthenticator(guard, logger);
  return async (req, res, next) => {
    const admission = await authenticate(req.headers, req.path);
    if (admission.ok) {
      (req as unknown as Record<symbol, Session>)[SESSION] = admission.session;
      next();
      return;
    }
    res.status(admission.answer.status).set(admission.answer.headers).json(admission.answer.body);
  };
}
