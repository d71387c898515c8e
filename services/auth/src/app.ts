import express from 'express';
import { createLocalJWKSet } from 'jose';
import { RESOURCE_SCOPES } from '../../../shared/auth/scopes.ts';
import { SERVICE_NAMES } from '../../../shared/config.ts';
import { dnsRebindingProtection } from '../../../shared/http/dns-rebinding.ts';
import { jsonErrorHandler, jsonNotFound } from '../../../shared/http/json-errors.ts';
import type { BuiltService, ServiceDeps } from '../../../shared/service.ts';
import { createWebAppRouter } from '../../app/src/web-app.ts';
import { createAccountService, type AccountService } from './account-service.ts';
import { createTokenMinter } from './domain/token-minter.ts';
import { accountErrorToWire } from './routes/account-error-to-wire.ts';
import { apiKeyRouter } from './routes/api-key-routes.ts';
import { createCallerAuthenticator } from './routes/authenticate-caller.ts';
import { exchangeRouter } from './routes/exchange-route.ts';
import { liveConnectorRouter } from './routes/live-connector-routes.ts';
import { loginRouter } from './routes/login-route.ts';
import { oboRouter } from './routes/obo-route.ts';
import { createClientResolver } from './oauth/client-resolver.ts';
import { createOAuthService, type OAuthService } from './oauth/oauth-service.ts';
import { oauthRouter } from './oauth/oauth-router.ts';
import { ensureActiveSigningKey, listPublicJwks } from './store/signing-key-store.ts';

export interface AuthService extends BuiltService {
  readonly accountService: AccountService;
  readonly oauth: OAuthService;
}

/** Auth and the account holder's web app, on one origin (DESIGN §1). */
export async function createAuthService({ config, db, logger }: ServiceDeps): Promise<AuthService> {
  const signingKey = await ensureActiveSigningKey(db.db);
  const minter = createTokenMinter({ issuer: config.issuer, signingKey });
  const resourceScopes = new Map(
    SERVICE_NAMES.filter((s) => s !== 'auth').map((s) => [config.services[s].resource, RESOURCE_SCOPES[s as Exclude<typeof s, 'auth'>]]),
  );
  const accountService = createAccountService({ config, db: db.db, minter, resourceScopes });
  const publicJwks = await listPublicJwks(db.db);
  const jwks = createLocalJWKSet({ keys: publicJwks });
  const authenticateCaller = createCallerAuthenticator({ accountService, jwks, issuer: config.issuer });
  const oauth = createOAuthService({ config, db: db.db, minter, accountService, jwks });
  const clients = createClientResolver({ db: db.db, config, logger });

  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: 'auth', issuer: config.issuer });
  });
  app.get('/.well-known/jwks.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json({ keys: publicJwks });
  });
  const endpoint = config.services.auth;
  app.use(dnsRebindingProtection({ publicUrl: endpoint.publicUrl, extraHosts: config.extraAllowedHosts, extraOrigins: [] }));
  app.use(loginRouter({ config, accountService }));
  app.use(apiKeyRouter({ accountService, authenticateCaller }));
  app.use(exchangeRouter({ accountService }));
  app.use(liveConnectorRouter({ accountService, authenticateCaller }));
  app.use(oboRouter({ accountService, jwks, issuer: config.issuer }));
  app.use((await import('./routes/chain-account-activation-route.ts')).chainAccountActivationRouter({ config, accountService, authenticateCaller }));
  app.use(oauthRouter({ config, db: db.db, logger, clients, oauth }));
  app.use(createWebAppRouter({ config, accountService, logger, oauth }));
  app.use(jsonNotFound);
  app.use(accountErrorToWire);
  app.use(jsonErrorHandler(logger));
  return { app, accountService, oauth, close: async () => {} };
}
