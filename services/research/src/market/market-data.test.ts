import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../../shared/db/client.ts';
import { sql } from '../../../../shared/db/client.ts';
import { openTestDb } from '../../../../test/support/test-db.ts';
import { startFakeDefillama, type FakeDefillama } from '../testing/fake-defillama.ts';
import { startResearchHarness, type ResearchHarness } from '../testing/research-harness.ts';

let db: DbHandle;
let fake: FakeDefillama;
let h: ResearchHarness | null = null;
let clock = new Date('2026-09-02T12:00:00Z');
const now = () => clock;
const advance = (s: number) => {
  clock = new Date(clock.getTime() + s * 1000);
};

beforeAll(async () => {
  db = await openTestDb();
  fake = await startFakeDefillama();
  // PGlite start plus every service's migrations: slow on a loaded 2-core machine.
}, 180_000);
afterAll(async () => {
  await fake.close();
  await db.close();
});
afterEach(async () => {
  await h?.close();
  h = null;
  await db.rows(sql`delete from research_snapshots`);
  fake.status = { '/pools': 200, '/stablecoins': 200, '/protocols': 200 };
  fake.lastModified = {};
  fake.hits['/pools'] = fake.hits['/stablecoins'] = fake.hits['/protocols'] = 0;
  clock = new Date('2026-09-02T12:00:00Z');
});

const start = async (env: Record<string, string> = {}) => {
  h = await startResearchHarness({ db, fake, now, env });
  return h;
};
const marketVintage = (ageSeconds: number) => {
  const d = new Date(clock.getTime() - ageSeconds * 1000);
  fake.lastModified = { '/pools': d, '/stablecoins': d, '/protocols': new Date(clock.getTime() - 5 * 3600 * 1000) };
};

describe('stale-data policy (YH_STALE_WARN_SECONDS / YH_STALE_DEGRADE_SECONDS)', () => {
  it('fresh data: no warning, dataAgeSeconds from yields/pegs only (protocol-meta 5 h old does not count)', async () => {
    marketVintage(60);
    const { envelope } = await (await start()).call('list_yields', {});
    expect(envelope.meta).toMatchObject({ degraded: false, warnings: [], dataAgeSeconds: 60 });
    expect(envelope.meta.sourcesFreshness.find((s: { source: string }) => s.source === 'defillama:protocols').ageSeconds).toBe(5 * 3600);
  });

  it('45 min old ⇒ warn only', async () => {
    marketVintage(45 * 60);
    const { envelope } = await (await start()).call('list_yields', {});
    expect(envelope.meta.degraded).toBe(false);
    expect(envelope.meta.warnings).toEqual(['Data age 45 minutes exceeds warn threshold (30 minutes)']);
  });

  it('3 h old ⇒ degraded with the degrade warning; scores and results unchanged', async () => {
    marketVintage(60);
    const fresh = (await (await start()).call('list_yields', {})).envelope;
    await h!.close();
    h = null;
    await db.rows(sql`delete from research_snapshots`);
    marketVintage(3 * 3600);
    const { envelope } = await (await start()).call('list_yields', {});
    expect(envelope.meta.degraded).toBe(true);
    expect(envelope.meta.warnings).toContain('Data age 180 minutes exceeds degrade threshold (120 minutes); results are degraded');
    expect(envelope.data.opportunities.map((o: { id: string }) => o.id)).toEqual(fresh.data.opportunities.map((o: { id: string }) => o.id));
  });

  it('custom thresholds from env are honoured', async () => {
    marketVintage(600);
    const { envelope } = await (await start({ YH_STALE_WARN_SECONDS: '300', YH_STALE_DEGRADE_SECONDS: '500' })).call('list_yields', {});
    expect(envelope.meta.degraded).toBe(true);
  });

  it('unknown vintage (no Last-Modified, no stamp) ⇒ asOf is the fetch time, never an invented warning', async () => {
    const { envelope } = await (await start()).call('list_yields', {});
    expect(envelope.meta).toMatchObject({ dataAgeSeconds: 0, warnings: [], degraded: false });
  });
});

describe('cache TTL and revalidation', () => {
  it('a fresh hit within TTL does not refetch; after TTL it does', async () => {
    marketVintage(0);
    const r = await start();
    await r.call('list_yields', {});
    expect(fake.hits['/pools']).toBe(1);
    advance(300);
    marketVintage(0);
    await r.call('list_yields', {});
    expect(fake.hits['/pools']).toBe(1);
    advance(301);
    await r.call('list_yields', {});
    expect(fake.hits['/pools']).toBe(2);
  });

  it('a hit whose asOf is past the warn threshold is revalidated on the request, inside the TTL', async () => {
    marketVintage(40 * 60);
    const r = await start();
    await r.call('list_yields', {});
    expect(fake.hits['/pools']).toBe(1);
    advance(5);
    marketVintage(10);
    const { envelope } = await r.call('list_yields', {});
    expect(fake.hits['/pools']).toBe(2);
    expect(envelope.meta).toMatchObject({ warnings: [], dataAgeSeconds: 10 });
  });
});

describe('persistence: upstream down ⇒ last good snapshot, degraded; recovery clears it', () => {
  it('serves the persisted snapshot with a warning naming its age, then recovers', async () => {
    marketVintage(0);
    const r = await start();
    const first = (await r.call('list_yields', {})).envelope;
    advance(700);
    fake.status = { '/pools': 503, '/stablecoins': 503, '/protocols': 503 };
    const down = (await r.call('list_yields', {})).envelope;
    expect(down.ok).toBe(true);
    expect(down.meta.degraded).toBe(true);
    expect(down.meta.warnings).toContain('defillama:yields upstream unavailable (defillama:yields: HTTP 503); serving the last good snapshot obtained 12 minutes ago');
    expect(down.data.opportunities.map((o: { id: string }) => o.id)).toEqual(first.data.opportunities.map((o: { id: string }) => o.id));
    fake.status = { '/pools': 200, '/stablecoins': 200, '/protocols': 200 };
    marketVintage(0);
    const up = (await r.call('list_yields', {})).envelope;
    expect(up.meta).toMatchObject({ degraded: false, warnings: [] });
  });

  it('a restart with upstream down serves what the previous process stored (shared through Postgres)', async () => {
    marketVintage(0);
    const r = await start();
    await r.call('list_yields', {});
    fake.status = { '/pools': 503, '/stablecoins': 503, '/protocols': 503 };
    advance(900);
    await r.restart();
    const { envelope } = await r.call('list_yields', {});
    expect(envelope.ok).toBe(true);
    expect(envelope.meta.degraded).toBe(true);
    expect(envelope.meta.warnings.some((w: string) => w.includes('serving the last good snapshot obtained 15 minutes ago'))).toBe(true);
    const rows = await db.rows<{ source: string; origin: string }>(sql`select source, origin from research_snapshots order by source`);
    expect(rows).toEqual([
      { source: 'defillama:pegs', origin: 'fetch' },
      { source: 'defillama:protocols', origin: 'fetch' },
      { source: 'defillama:yields', origin: 'fetch' },
    ]);
  });

  it('no network and no snapshot ⇒ UPSTREAM_UNAVAILABLE, never made-up data', async () => {
    fake.status = { '/pools': 503, '/stablecoins': 503, '/protocols': 503 };
    const { result, envelope } = await (await start()).call('list_yields', {});
    expect(result.isError).toBe(true);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('HTTP 503') } });
    expect(envelope).not.toHaveProperty('data');
    const rows = await db.rows(sql`select source from research_snapshots`);
    expect(rows).toEqual([]);
  });

  it('pegs down alone: served degraded with depeg unknown, yields still ranked', async () => {
    fake.status['/stablecoins'] = 503;
    const { envelope } = await (await start()).call('list_yields', {});
    expect(envelope.ok).toBe(true);
    expect(envelope.meta.degraded).toBe(true);
    expect(envelope.meta.warnings).toContain('Stablecoin prices unavailable: depeg factor scored as unknown for every coin');
    expect(envelope.meta.dataAgeSeconds).toBeNull();
  });
});

describe('kill switch (YH_UPSTREAM_DISABLED)', () => {
  it('never fetches; with nothing stored answers UPSTREAM_UNAVAILABLE', async () => {
    const { envelope } = await (await start({ YH_UPSTREAM_DISABLED: 'true' })).call('list_yields', {});
    expect(envelope.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('YH_UPSTREAM_DISABLED') });
    expect(fake.hits).toEqual({ '/pools': 0, '/stablecoins': 0, '/protocols': 0 });
  });

  it('serves a stored snapshot with a warning, and health skips the idle refresh', async () => {
    marketVintage(0);
    const r = await start();
    await r.call('list_yields', {});
    const hitsBefore = { ...fake.hits };
    advance(3 * 3600);
    await r.restart({ YH_UPSTREAM_DISABLED: 'true' });
    const { envelope } = await r.call('list_yields', {});
    expect(envelope.ok).toBe(true);
    expect(envelope.meta.warnings.some((w: string) => w.startsWith('Upstream fetches are disabled'))).toBe(true);
    const health = await (await fetch(`${r.baseUrl}/health`)).json();
    expect(health.metrics.idleMarketRefreshesTotal).toBe(0);
    expect(health.featureFlags.killSwitch).toBe(true);
    expect(fake.hits).toEqual(hitsBefore);
  });
});

describe('health (GET /health and the MCP tool)', () => {
  it('idle with no market data: health refreshes once through the cache and reports lastSuccess vs dataVintage', async () => {
    marketVintage(120);
    const r = await start();
    const health = await (await fetch(`${r.baseUrl}/health`)).json();
    expect(health).toMatchObject({ status: 'ok', researchStatus: 'healthy', scoringVersion: 'v2.1', metrics: { idleMarketRefreshesTotal: 1 } });
    expect(health.tools).toEqual(['health', 'list_yields', 'score_opportunity', 'compare_opportunities', 'explain_score', 'get_protocol_risk']);
    const yields = health.dataSources.find((s: { source: string }) => s.source === 'defillama:yields');
    expect(yields.dataVintage).toBe(new Date(Math.floor((clock.getTime() - 120_000) / 1000) * 1000).toISOString());
    expect(yields.lastSuccess).toBe(clock.toISOString());
    expect(fake.hits['/pools']).toBe(1);
    // Fresh now: a second health call does not refresh again.
    await fetch(`${r.baseUrl}/health`);
    expect(fake.hits['/pools']).toBe(1);
    const { envelope } = await r.call('health', {});
    expect(envelope).toMatchObject({ ok: true, data: { status: 'healthy', metrics: { idleMarketRefreshesTotal: 1 }, featureFlags: { writePath: false } } });
  });

  it('market vintage at/over the degrade threshold triggers the idle refresh', async () => {
    marketVintage(0);
    const r = await start();
    await r.call('list_yields', {});
    advance(2 * 3600);
    marketVintage(0);
    const health = await (await fetch(`${r.baseUrl}/health`)).json();
    expect(health.metrics.idleMarketRefreshesTotal).toBe(1);
    expect(fake.hits['/pools']).toBe(2);
    expect(health.marketDataAgeSeconds).toBe(0);
  });
});
