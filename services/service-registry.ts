import type { ServiceName } from '../shared/config.ts';
import type { BuiltService, ServiceDeps } from '../shared/service.ts';

/**
 * Each service's module, loaded lazily so `npm start -- research` loads only research.
 * This file and `main.ts` are the only places that know every service.
 */
export const SERVICE_MODULES = {
  auth: () => import('./auth/src/app.ts'),
  research: () => import('./research/src/app.ts'),
  knowledge: () => import('./knowledge/src/app.ts'),
  'payments-test': () => import('./payments/src/app.ts'),
  'payments-live': () => import('./payments/src/app.ts'),
  gateway: () => import('./gateway/src/app.ts'),
} satisfies Record<ServiceName, () => Promise<unknown>>;

/** How each service is built from its module. */
export const SERVICE_FACTORIES: Record<ServiceName, (deps: ServiceDeps) => Promise<BuiltService>> = {
  auth: async (deps) => (await SERVICE_MODULES.auth()).createAuthService(deps),
  research: async (deps) => (await SERVICE_MODULES.research()).createResearchService(deps),
  knowledge: async (deps) => (await SERVICE_MODULES.knowledge()).createKnowledgeService(deps),
  'payments-test': async (deps) => (await SERVICE_MODULES['payments-test']()).createPaymentsService(deps, 'test'),
  'payments-live': async (deps) => (await SERVICE_MODULES['payments-live']()).createPaymentsService(deps, 'live'),
  gateway: async (deps) => (await SERVICE_MODULES.gateway()).createGatewayService(deps),
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
