import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { Config } from '../../../shared/config.ts';
import type { AccountService } from '../../auth/src/account-service.ts';
import type { User } from '../../auth/src/store/user-store.ts';

export const SESSION_COOKIE = 'gh_session';
export const LOGIN_CSRF_COOKIE = 'gh_login_csrf';

export interface SignedIn {
  readonly user: User;
  readonly sessionId: string;
  readonly csrfToken: string;
}

const SIGNED_IN = Symbol('gatehouse.web.signedIn');

export function cookiesOf(req: Request): Record<string, string | undefined> {
  return parseCookie(req.headers.cookie ?? '');
}

/** HttpOnly so scripts cannot read it; SameSite=Lax against cross-site form posts; Secure on https. */
export function cookieHeader(config: Config, name: string, value: string, maxAgeSeconds: number): string {
  return serializeCookie(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.issuer.startsWith('https://'),
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function safeEqual(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Only same-site relative paths may be a post-sign-in destination (no open redirect). */
export function safeNextPath(next: unknown): string | undefined {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  return next;
}

export function createWebSessionMiddleware(deps: { accountService: AccountService }) {
  const { accountService } = deps;

  async function loadSignedIn(req: Request): Promise<SignedIn | undefined> {
    const id = cookiesOf(req)[SESSION_COOKIE];
    if (!id) return undefined;
    const session = await accountService.findWebSession(id);
    if (!session) return undefined;
    const user = await accountService.findUserById(session.userId);
    return user && { user, sessionId: id, csrfToken: session.csrfToken };
  }

  return {
    /** Pages: a visitor who is not signed in is sent to sign in, and comes back afterwards. */
    requireSignedIn: async (req: Request, res: Response, next: NextFunction) => {
      const signedIn = await loadSignedIn(req);
      if (!signedIn) {
        res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
        return;
      }
      (req as unknown as Record<symbol, SignedIn>)[SIGNED_IN] = signedIn;
      next();
    },
    /** Form posts: a missing or wrong CSRF token is refused before anything happens. */
    requireCsrf: (req: Request, res: Response, next: NextFunction) => {
      const signedIn = signedInOf(req);
      if (!safeEqual((req.body as Record<string, string> | undefined)?.csrf, signedIn.csrfToken)) {
        res.status(403).type('text/plain').send('Forbidden: the form has expired or did not come from this site. Reload the page and try again.');
        return;
      }
      next();
    },
    loadSignedIn,
  };
}

export function signedInOf(req: Request): SignedIn {
  const signedIn = (req as unknown as Record<symbol, SignedIn | undefined>)[SIGNED_IN];
  if (!signedIn) throw new Error('signedInOf called outside requireSignedIn');
  return signedIn;
}
