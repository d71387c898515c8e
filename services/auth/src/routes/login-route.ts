import express, { type Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import type { Config } from '../../../../shared/config.ts';
import type { AccountService } from '../account-service.ts';
import { parseBody } from './parse-body.ts';

const LoginBody = z.strictObject({ email: z.string().email().max(320), password: z.string().min(1).max(1024) });

function tooManyAttempts(windowSeconds: number) {
  return (_req: express.Request, res: express.Response) => {
    res.status(429).set('Retry-After', String(windowSeconds)).json({
      error: 'rate_limited',
      error_description: 'Too many sign-in attempts; try again later',
    });
  };
}

/**
 * Password guessing is limited twice: per address (one attacker, many accounts) and per
 * account (many addresses, one account). Only failed attempts count against the account, so
 * the holder is not locked out by their own successful sign-ins.
 */
export function loginRateLimiters(config: Config) {
  const windowMs = config.loginRateLimit.windowSeconds * 1000;
  const perAddress = rateLimit({
    windowMs,
    limit: config.loginRateLimit.perAddress,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: tooManyAttempts(config.loginRateLimit.windowSeconds),
  });
  const perAccount = rateLimit({
    windowMs,
    limit: config.loginRateLimit.perAccount,
    standardHeaders: false,
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator: (req) => `account:${String((req.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()}`,
    handler: tooManyAttempts(config.loginRateLimit.windowSeconds),
  });
  return [perAddress, perAccount];
}

export function loginRouter(deps: { config: Config; accountService: AccountService }): Router {
  const router = express.Router();
  router.post('/auth/login', express.json({ limit: '16kb' }), ...loginRateLimiters(deps.config), async (req, res) => {
    const { email, password } = parseBody(LoginBody, req);
    const user = await deps.accountService.authenticatePassword(email, password);
    res.set('Cache-Control', 'no-store').json(await deps.accountService.mintLoginToken(user));
  });
  return router;
}
