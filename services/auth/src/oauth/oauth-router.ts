import express, { type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import type { Db } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { accessTokenStatusRouter } from './access-token-status-route.ts';
import { authorizationServerMetadataRouter, createAuthorizationServerMetadata } from './authorization-server-metadata.ts';
import { authorizeRouter } from './authorize-route.ts';
import type { ClientResolver } from './client-resolver.ts';
import { oauthErrorToWire } from './oauth-error.ts';
import type { OAuthService } from './oauth-service.ts';
import { registerRouter } from './register-route.ts';
import { revokeRouter } from './revoke-route.ts';
import { tokenRouter } from './token-route.ts';

/** Wires the authorization server's endpoints; each lives in its own file. */
export function oauthRouter(deps: { config: Config; db: Db; logger: Logger; clients: ClientResolver; oauth: OAuthService }): Router {
  const router = express.Router();
  router.use(authorizationServerMetadataRouter(createAuthorizationServerMetadata(deps.config, deps.oauth.resources)));
  router.use(registerRouter(deps));
  router.use(authorizeRouter(deps));
  router.use(tokenRouter(deps));
  router.use(revokeRouter(deps));
  router.use(accessTokenStatusRouter(deps));
  router.use(oauthErrorToWire(deps.logger));
  return router;
}
