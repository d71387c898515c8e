import { RESOURCE_SCOPES } from '../../../../shared/auth/scopes.ts';
import { LIVE_CHAIN_ID, SERVICE_NAMES, TEST_CHAIN_ID, type Config, type ServiceName } from '../../../../shared/config.ts';

export type McpServiceName = Exclude<ServiceName, 'auth'>;

/** One MCP server this authorization server issues tokens for (RFC 8707 §2). */
export interface ProtectedResource {
  readonly resource: string;
  readonly serviceName: McpServiceName;
  /** The chain a grant for this resource is bound to: live only on the live payments host. */
  readonly chainId: string;
  readonly scopes: readonly string[];
  readonly live: boolean;
  readonly displayName: string;
}

const DISPLAY_NAMES: Record<McpServiceName, string> = {
  research: 'Research',
  knowledge: 'Knowledge base',
  'payments-test': 'Payments — TEST chain (153)',
  'payments-live': 'Payments — LIVE chain (151), real money',
  gateway: 'Gateway',
};

export function listProtectedResources(config: Config): ProtectedResource[] {
  return SERVICE_NAMES.filter((s): s is McpServiceName => s !== 'auth').map((serviceName) => ({
    resource: config.services[serviceName].resource,
    serviceName,
    chainId: serviceName === 'payments-live' ? LIVE_CHAIN_ID : TEST_CHAIN_ID,
    scopes: RESOURCE_SCOPES[serviceName],
    live: serviceName === 'payments-live',
    displayName: DISPLAY_NAMES[serviceName],
  }));
}

/**
 * Resolves a `resource` parameter to one configured MCP server by exact string match: no prefix
 * or path-boundary matching, so `/mcp-other`, the bare origin or a trailing slash never select a
 * server (RS-7), and one token always has exactly one audience.
 */
export function resolveResource(resources: readonly ProtectedResource[], requested: string): ProtectedResource | undefined {
  if (requested.includes('#')) return undefined; // RFC 8707 §2: MUST NOT include a fragment.
  return resources.find((r) => r.resource === requested);
}

export const OFFLINE_ACCESS = 'offline_access';

/**
 * The scopes to grant: the requested ones, each of which must belong to the resource (or be
 * `offline_access`); none requested means every scope of the resource. `offline_access` is kept
 * in the grant but never put in an access token.
 */
export function resolveRequestedScopes(resource: ProtectedResource, scope: string | undefined): { ok: true; scopes: string[] } | { ok: false; unknown: string[] } {
  const requested = (scope ?? '').split(' ').filter(Boolean);
  if (requested.length === 0) return { ok: true, scopes: [...resource.scopes] };
  const unknown = requested.filter((s) => s !== OFFLINE_ACCESS && !resource.scopes.includes(s));
  if (unknown.length) return { ok: false, unknown };
  const scopes = [...new Set(requested)];
  // Only offline_access asked for: the client still needs something to do on the resource.
  return { ok: true, scopes: scopes.every((s) => s === OFFLINE_ACCESS) ? [...resource.scopes, OFFLINE_ACCESS] : scopes };
}
