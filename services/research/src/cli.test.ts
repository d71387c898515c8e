import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../shared/cli.ts';
import { sql, type DbHandle } from '../../../shared/db/client.ts';
import { runCli } from '../../../test/support/cli-runner.ts';
import { openTestDb } from '../../../test/support/test-db.ts';
import { commands } from './cli.ts';
import { fixturePools, fixtureProtocols, fixtureStablecoins, ID } from './testing/defillama-fixtures.ts';
import { startResearchHarness } from './testing/research-harness.ts';

let db: DbHandle;
let dir: string;

const research = (name: string, argv: string[]) => runCli(db, commands, name, argv);

beforeAll(async () => {
  db = await openTestDb();
  dir = await mkdtemp(join(tmpdir(), 'research-cli-'));
  await writeFile(join(dir, 'pools.json'), JSON.stringify({ _meta: { scrapedAt: '2026-09-02T11:00:00Z' }, status: 'success', data: fixturePools() }));
  await writeFile(join(dir, 'stablecoins.json'), JSON.stringify({ _meta: { scrapedAt: '2026-09-02T11:30:00Z' }, ...fixtureStablecoins() }));
  await writeFile(join(dir, 'protocols.json'), JSON.stringify(fixtureProtocols()));
  await writeFile(join(dir, 'broken.json'), '{"status":"success","data":"nope"}');
  // PGlite start plus every service's migrations: slow on a loaded 2-core machine.
}, 180_000);
afterAll(async () => {
  await db.close();
});

const stored = () => db.rows<{ source: string; origin: string; record_count: number }>(sql`select source, origin, record_count from research_snapshots order by source`);

describe('research import / export (offline use)', () => {
  it('rejects a malformed file before storing anything', async () => {
    const d = await research('research import', ['--pools', join(dir, 'broken.json'), '--stablecoins', join(dir, 'stablecoins.json')]);
    expect(d.code).toBe(1);
    expect(d.err).toContain('pools response has no data[]');
    expect(d.out).toBe('');
    expect(await stored()).toEqual([]);
  });

  it('rejects unknown flags and empty invocations as usage errors', async () => {
    await expect(research('research import', ['--pool', 'x'])).rejects.toBeInstanceOf(CliUsageError);
    await expect(research('research import', [])).rejects.toBeInstanceOf(CliUsageError);
    await expect(research('research export', [])).rejects.toBeInstanceOf(CliUsageError);
    expect(await stored()).toEqual([]);
  });

  it('imports raw API shapes; an air-gapped server (kill switch) serves them with the file vintage', async () => {
    const d = await research('research import', ['--pools', join(dir, 'pools.json'), '--stablecoins', join(dir, 'stablecoins.json'), '--protocols', join(dir, 'protocols.json')]);
    expect(d.code).toBe(0);
    expect(d.out).toContain('asOf 2026-09-02T11:00:00.000Z');
    expect(await stored()).toEqual([
      { source: 'defillama:pegs', origin: 'import', record_count: fixtureStablecoins().peggedAssets.length },
      { source: 'defillama:protocols', origin: 'import', record_count: fixtureProtocols().length },
      { source: 'defillama:yields', origin: 'import', record_count: fixturePools().length },
    ]);
    const clock = new Date('2026-09-02T12:00:00Z');
    const h = await startResearchHarness({ db, now: () => clock, env: { YH_UPSTREAM_DISABLED: 'true' } });
    try {
      const { envelope } = await h.call('list_yields', {});
      expect(envelope.ok).toBe(true);
      expect(envelope.meta.dataAgeSeconds).toBe(3600);
      expect(envelope.meta.lastRefreshedAt).toBe('2026-09-02T11:30:00.000Z');
      expect(envelope.data.opportunities.length).toBe(10);
      expect(h.fake.hits).toEqual({ '/pools': 0, '/stablecoins': 0, '/protocols': 0 });
    } finally {
      await h.close();
    }
  });

  it('exports the stored snapshot as re-importable files', async () => {
    const out = join(dir, 'export');
    expect((await research('research export', [out])).code).toBe(0);
    const pools = JSON.parse(await readFile(join(out, 'pools.json'), 'utf8'));
    expect(pools).toMatchObject({ status: 'success', _meta: { asOf: '2026-09-02T11:00:00.000Z' } });
    expect(pools.data.map((p: { pool: string }) => p.pool)).toContain(ID.aaveUsdcEth);
    expect(Array.isArray(JSON.parse(await readFile(join(out, 'protocols.json'), 'utf8')))).toBe(true);
    expect(JSON.parse(await readFile(join(out, 'stablecoins.json'), 'utf8')).peggedAssets.length).toBe(fixtureStablecoins().peggedAssets.length);
    expect((await research('research import', ['--pools', join(out, 'pools.json')])).code).toBe(0);
    expect((await stored()).find((r) => r.source === 'defillama:yields')!.record_count).toBe(fixturePools().length);
  });
});
