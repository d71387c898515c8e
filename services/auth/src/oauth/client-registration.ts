import { randomBytes } from 'node:crypto';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Db } from '../../../../shared/db/client.ts';
import { insertOAuthClient, type RegisteredClient, type TokenEndpointAuthMethod } from '../store/oauth-client-store.ts';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-token.ts';
import { OAuthError } from './oauth-error.ts';
import { checkRedirectUri } from './redirect-uri.ts';

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/**
 * RFC 7591 §3.1 registration: checks run in order of danger (redirect URIs first), and nothing is
 * stored unless every check passes. Policy (docs/oauth.md):
 * - `token_endpoint_auth_method` omitted means `client_secret_basic`, the RFC 7591 §2 default; the
 *   secret does not expire (`client_secret_expires_at: 0`). MCP clients register `none`.
 * - `grant_types` ⊆ {authorization_code, refresh_token} and must include authorization_code;
 *   `response_types` must be ["code"].
 */
export async function registerClient(db: Db, body: unknown): Promise<{ client: RegisteredClient; clientSecret: string | undefined }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The registration body must be a JSON object');
  const raw = body as Record<string, unknown>;
  if (!Array.isArray(raw.redirect_uris) || raw.redirect_uris.length === 0 || raw.redirect_uris.length > 20) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list between 1 and 20 URIs');
  }
  for (const uri of raw.redirect_uris) {
    const checked = typeof uri === 'string' && uri.length <= 2000 ? checkRedirectUri(uri) : { ok: false as const, reason: 'unparseable' };
    if (!checked.ok) throw new OAuthError('invalid_redirect_uri', `A redirect URI is not acceptable (${checked.reason})`, { reason: checked.reason });
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) throw new OAuthError('invalid_client_metadata', `Invalid client metadata: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  const metadata = parsed.data;

  const method = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as TokenEndpointAuthMethod;
  if (!AUTH_METHODS.includes(method)) throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  if (!grantTypes.includes('authorization_code') || grantTypes.some((g) => !GRANT_TYPES.includes(g))) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code and may add only refresh_token');
  }
  const responseTypes = metadata.response_types ?? ['code'];
  if (responseTypes.length !== 1 || responseTypes[0] !== 'code') throw new OAuthError('invalid_client_metadata', 'response_types must be ["code"]');
  const clientName = metadata.client_name?.trim().slice(0, 200) || null;

  const clientSecret = method === 'none' ? undefined : generateOpaqueToken('ghcs_');
  const client = await insertOAuthClient(db, {
    clientId: `ghc_${randomBytes(16).toString('base64url')}`,
    clientSecretHash: clientSecret ? hashOpaqueToken(clientSecret) : null,
    tokenEndpointAuthMethod: method,
    redirectUris: raw.redirect_uris as string[],
    grantTypes: [...new Set(grantTypes)],
    responseTypes,
    clientName,
    clientUri: metadata.client_uri ?? null,
    logoUri: metadata.logo_uri ?? null,
    scope: metadata.scope ?? null,
    softwareId: metadata.software_id ?? null,
    softwareVersion: metadata.software_version ?? null,
  });
  return { client, clientSecret };
}

/**
 * The RFC 7591 §3.2.1 response. Optional members are omitted rather than `null`: some clients
 * (Claude Code #52565) reject a registration response that contains nulls.
 */
export function clientInformationResponse(client: RegisteredClient, clientSecret: string | undefined): Record<string, unknown> {
  const optional = {
    client_name: client.clientName,
    client_uri: client.clientUri,
    logo_uri: client.logoUri,
    scope: client.scope,
    software_id: client.softwareId,
    software_version: client.softwareVersion,
  };
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null && v !== undefined)),
  };
}
