import type { ServiceName } from '../shared/config.ts';
import type { BuiltService, ServiceDeps } from '../shared/service.ts';

/**
 * How each service is built. Imports are lazy so `npm start -- research` loads only research.
 * This file and `main.ts` are the only places that know every service.
 */
export const SERVICE_FACTORIES: Record<ServiceName, (deps: ServiceDeps) => Promise<BuiltService>> = {
  auth: async (deps) => (await import('./auth/src/app.ts')).createAuthService(deps),
  research: async (deps) => (await import('./research/src/app.ts')).createResearchService(deps),
  knowledge: async (deps) => (await import('./knowledge/src/app.ts')).createKnowledgeService(deps),
  'payments-test': async (deps) => (await import('./payments/src/app.ts')).createPaymentsService(deps, 'test'),
  'payments-live': async (deps) => (await import('./payments/src/app.ts')).createPaymentsService(deps, 'live'),
  gateway: async (deps) => (await import('./gateway/src/app.ts')).createGatewayService(deps),
};

/** `payments` is shorthand for both chain hosts. */
export function resolveServiceNames(args: readonly string[], all: readonly ServiceName[]): ServiceName[] {
  if (args.length === 0) return [...all];
  const names = new Set<ServiceName>();
  for (const arg of args) {
    if (arg === 'payments') {
      names.add('payments-test');
      names.add('payments-live');
    } else if ((all as readonly string[]).includes(arg)) names.add(arg as ServiceName);
    else throw new Error(`Unknown service "${arg}". Known: ${all.join(', ')}, payments`);
  }
  return [...names];
}
