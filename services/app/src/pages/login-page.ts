import express, { type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { loginRateLimiters } from '../../../auth/src/routes/login-route.ts';
import { AccountError } from '../../../auth/src/domain/account-errors.ts';
import { html, layout } from '../html.ts';
import {
  LOGIN_CSRF_COOKIE,
  SESSION_COOKIE,
  cookieHeader,
  cookiesOf,
  createWebSessionMiddleware,
  newCsrfToken,
  safeEqual,
  safeNextPath,
  signedInOf,
} from '../web-session.ts';

function loginForm(csrf: string, next: string | undefined, email: string, error?: string): string {
  return layout(
    { title: 'Sign in', ...(error ? { flash: { kind: 'error' as const, text: error } } : {}) },
    html`<section><h1>Sign in</h1>
<form method="post" action="/login">
<input type="hidden" name="csrf" value="${csrf}">
${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p></form></section>`,
  );
}

/**
 * Sign-in and sign-out. The login form has no session yet, so its CSRF token is a
 * double-submit cookie; after sign-in, every form carries the session's own token.
 */
export function loginPage(deps: { config: Config; accountService: AccountService; logger: Logger }): Router {
  const { config, accountService } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/', async (req, res) => {
    res.redirect(303, (await web.loadSignedIn(req)) ? '/keys' : '/login');
  });

  router.get('/login', (req, res) => {
    // Reuse the visitor's token if present, so two open sign-in tabs do not invalidate each other.
    const existing = cookiesOf(req)[LOGIN_CSRF_COOKIE];
    const csrf = existing && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : newCsrfToken();
    res.set('Set-Cookie', cookieHeader(config, LOGIN_CSRF_COOKIE, csrf, 3600));
    res.type('html').send(loginForm(csrf, safeNextPath(req.query.next), ''));
  });

  router.post('/login', form, ...loginRateLimiters(config), async (req, res) => {
    const body = req.body as Record<string, string | undefined>;
    const next = safeNextPath(body.next);
    const email = String(body.email ?? '');
    if (!safeEqual(body.csrf, cookiesOf(req)[LOGIN_CSRF_COOKIE])) {
      const csrf = newCsrfToken();
      res.status(403).set('Set-Cookie', cookieHeader(config, LOGIN_CSRF_COOKIE, csrf, 3600)).type('html').send(loginForm(csrf, next, email, 'The form expired. Please sign in again.'));
      return;
    }
    try {
      const user = await accountService.authenticatePassword(email, String(body.password ?? ''));
      const session = await accountService.createWebSession(user.id);
      res.set('Set-Cookie', [
        cookieHeader(config, SESSION_COOKIE, session.id, config.webSessionTtlSeconds),
        cookieHeader(config, LOGIN_CSRF_COOKIE, '', 0),
      ]);
      res.redirect(303, next ?? '/keys');
    } catch (err) {
      if (!(err instanceof AccountError)) throw err;
      const csrf = newCsrfToken();
      res.status(401).set('Set-Cookie', cookieHeader(config, LOGIN_CSRF_COOKIE, csrf, 3600)).type('html').send(loginForm(csrf, next, email, 'Email or password is incorrect.'));
    }
  });

  router.post('/logout', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    await accountService.deleteWebSession(signedInOf(req).sessionId);
    res.set('Set-Cookie', cookieHeader(config, SESSION_COOKIE, '', 0)).redirect(303, '/login');
  });

  return router;
}
