import express, { type Router } from 'express';
import type { Config } from '../../../shared/config.ts';
import type { Logger } from '../../../shared/log.ts';
import type { AccountService } from '../../auth/src/account-service.ts';
import type { OAuthService } from '../../auth/src/oauth/oauth-service.ts';
import { STYLESHEET } from './html.ts';
import { connectedAppsPageRouter } from './pages/connected-apps-page.ts';
import { consentPageRouter } from './pages/consent-page.ts';
import { approvalsPageRouter } from './pages/approvals-page.ts';
import { gatewayRegistryPageRouter } from './pages/gateway-registry-page.ts';
import { keysPageRouter } from './pages/keys-page.ts';
import { knowledgePageRouter } from './pages/knowledge-page.ts';
import { liveMoneyPageRouter } from './pages/live-money-page.ts';
import { loginPage } from './pages/login-page.ts';
import { intentsPageRouter } from './pages/intents-page.ts';
import { walletPageRouter } from './pages/wallet-page.ts';

/**
 * The account holder's web app, served on auth's origin. Every page refuses to be framed
 * (clickjacking a "Confirm" or "Turn live money on" button is the attack) and loads nothing
 * from elsewhere.
 */
export function createWebAppRouter(deps: { config: Config; accountService: AccountService; logger: Logger; oauth?: OAuthService }): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set({
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    });
    next();
  });
  router.get('/assets/app.css', (_req, res) => {
    res.type('text/css').set('Cache-Control', 'public, max-age=3600').send(STYLESHEET);
  });
  router.use(loginPage(deps));
  router.use(keysPageRouter(deps));
  router.use(liveMoneyPageRouter(deps));
  router.use(intentsPageRouter(deps));
  router.use(walletPageRouter(deps));
  router.use(approvalsPageRouter(deps));
  router.use(gatewayRegistryPageRouter(deps));
  router.use(knowledgePageRouter(deps));
  // The consent page sets its own CSP: its form must be allowed to redirect to the client.
  if (deps.oauth) router.use(consentPageRouter({ ...deps, oauth: deps.oauth }), connectedAppsPageRouter({ ...deps, oauth: deps.oauth }));
  return router;
}
