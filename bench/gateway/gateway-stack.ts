import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../../test/support/stack.ts';
import type { GatewayService } from '../../services/gateway/src/app.ts';
import { upsertUpstream } from '../../services/gateway/src/store/upstream-store.ts';

/**
 * Auth and the gateway on one fresh database, with `upstreamUrl` registered as `ext` (no auth to
 * it, `list_yields` cached for 300 s) and one connector key for a bench user. Used by both
 * layouts: in its own process (gateway-process.ts) or in the load generator's.
 */
export async function startGatewayBench(upstreamUrl: string): Promise<{ url: string; key: string; db: string; close(): Promise<void> }> {
  // PGlite in a data directory, as `npm start` runs it: in memory its files grow by copying, which
  // cost ~30 % of each receipt INSERT in a profile and is not what a deployment pays.
  const dataDir = mkdtempSync(join(tmpdir(), 'gwb-pglite-'));
  const stack = await startStack({ services: ['gateway'], pgliteDataDir: dataDir });
  await upsertUpstream(stack.db, { name: 'ext', url: upstreamUrl, prefix: 'ext', categories: ['defi'], tier: 'standard', costMicroUsdc: 5000, timeoutMs: 30000, maxConcurrent: 64, cacheTtls: { list_yields: 300 }, auth: { kind: 'none' }, autoApprove: [], source: 'cli' });
  await (stack.services.gateway as GatewayService).registry.refreshDue();
  await stack.createUser({ email: 'bench@example.com' });
  const key = (await stack.createKey('bench@example.com')).api_key;
  return { url: stack.config.services.gateway.resource, key, db: stack.db.kind, close: async () => {
    await stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  } };
}
