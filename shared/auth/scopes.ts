import type { ServiceName } from '../config.ts';

/**
 * Scopes each protected resource advertises (RFC 9728 `scopes_supported`). `offline_access` is an
 * authorization-server scope and is deliberately absent here (RS-2).
 */
export const RESOURCE_SCOPES: Readonly<Record<Exclude<ServiceName, 'auth'>, readonly string[]>> = {
  research: ['research:read'],
  knowledge: ['knowledge:read'],
  'payments-test': ['payments:read', 'payments:propose'],
  'payments-live': ['payments:read', 'payments:propose'],
  gateway: ['gateway:read', 'gateway:invoke'],
};
