import type { Config, ServiceEndpoint } from '../config.ts';
import { createExchangeClient } from './exchange-client.ts';
import { createGuard, type Guard } from './guard.ts';

/** Builds the guard for one MCP server from config: its resource, its chain, auth's address. */
export function createServiceGuard(config: Config, endpoint: ServiceEndpoint, chainId: string | null): Guard {
  const exchangeClient = createExchangeClient({
    authInternalUrl: config.authInternalUrl,
    resource: endpoint.resource,
    timeoutMs: config.authTimeoutMs,
    cacheTtlSeconds: config.exchangeCacheTtlSeconds,
  });
  return createGuard({
    resource: endpoint.resource,
    issuer: config.issuer,
    chainId,
    exchangeClient,
    jwksUrl: `${config.authInternalUrl}/.well-known/jwks.json`,
    jwksTimeoutMs: config.authTimeoutMs,
  });
}
