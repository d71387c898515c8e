import express, { type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import { OFFLINE_ACCESS, type ProtectedResource } from './resource-indicator.ts';

/**
 * RFC 8414 §2 metadata. `issuer` is byte-identical to the protected-resource metadata's
 * `authorization_servers[0]` and to the `iss` of every authorization response (no trailing
 * slash anywhere: config strips it once).
 */
export function createAuthorizationServerMetadata(config: Config, resources: readonly ProtectedResource[]) {
  const issuer = config.issuer;
  const scopes = [...new Set(resources.flatMap((r) => r.scopes)), OFFLINE_ACCESS];
  return Object.freeze({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: scopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  });
}

/** Served at the RFC 8414 §3 location. There is no OpenID Connect here, so no openid-configuration (AS-2: 404). */
export function authorizationServerMetadataRouter(metadata: ReturnType<typeof createAuthorizationServerMetadata>): Router {
  const router = express.Router();
  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(metadata);
  });
  return router;
}
