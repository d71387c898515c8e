import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCommandArgs } from '../../../shared/cli-args.ts';
import { CliUsageError, type CliCommand, type CliDeps } from '../../../shared/cli.ts';
import { loadResearchConfig } from './config.ts';
import type { SourceName } from './domain/market-snapshot.ts';
import { loadProtocolPriors } from './domain/protocol-priors.ts';
import { ResearchError } from './errors.ts';
import { MarketData } from './market/market-data.ts';
import { createSnapshotStore } from './store/snapshot-store.ts';
import { createDefillamaClient } from './upstream/defillama-client.ts';
import { snapshotStampOf } from './upstream/defillama-records.ts';

/** Flag → source, and the file name `export` writes (re-importable with the same flags). */
const FILES: readonly { flag: 'pools' | 'stablecoins' | 'protocols'; source: SourceName; file: string }[] = [
  { flag: 'pools', source: 'defillama:yields', file: 'pools.json' },
  { flag: 'stablecoins', source: 'defillama:pegs', file: 'stablecoins.json' },
  { flag: 'protocols', source: 'defillama:protocols', file: 'protocols.json' },
];

async function withMarket<T>(deps: CliDeps, fn: (market: MarketData) => Promise<T>): Promise<T> {
  const db = await deps.openDb();
  try {
    const config = loadResearchConfig();
    // The CLI never fetches: import/export only move snapshots between files and Postgres.
    const client = createDefillamaClient({ yieldsUrl: config.yieldsUrl, stablecoinsUrl: config.stablecoinsUrl, apiUrl: config.apiUrl, timeoutMs: config.upstreamTimeoutMs });
    const market = new MarketData({ config: { ...config, upstreamDisabled: true }, client, store: createSnapshotStore(db), priors: loadProtocolPriors(), logger: deps.logger });
    return await fn(market);
  } finally {
    await db.close();
  }
}

export const researchImport: CliCommand = {
  name: 'research import',
  usage: 'gatehouse research import --pools F --stablecoins F --protocols F',
  summary: 'Load DefiLlama snapshot files (raw /pools, /stablecoins, /protocols responses) for air-gapped installs.',
  async run(argv, deps) {
    const { values, positionals } = parseCommandArgs(argv, { pools: { type: 'string' }, stablecoins: { type: 'string' }, protocols: { type: 'string' } });
    if (positionals.length) throw new CliUsageError(`Unexpected argument ${positionals[0]}`);
    for (const { flag } of FILES) if (values[flag] === '') throw new CliUsageError(`--${flag} needs a file path`);
    if (!FILES.some(({ flag }) => values[flag])) throw new CliUsageError('Give at least one of --pools, --stablecoins, --protocols');
    // Parse every file before storing any, so a bad file leaves the stored snapshot untouched.
    const loaded: { source: SourceName; body: unknown; path: string }[] = [];
    for (const { flag, source } of FILES) {
      const path = values[flag];
      if (!path) continue;
      let body: unknown;
      try {
        body = JSON.parse(await readFile(path, 'utf8'));
      } catch (err) {
        deps.stderr.write(`research import: cannot read ${path}: ${(err as Error).message}\n`);
        return 1;
      }
      loaded.push({ source, body, path });
    }
    return withMarket(deps, async (market) => {
      for (const { source, body, path } of loaded) {
        try {
          market.validateSnapshot(source, body);
        } catch (err) {
          deps.stderr.write(`research import: ${path}: ${err instanceof ResearchError || err instanceof Error ? err.message : String(err)}\n`);
          return 1;
        }
      }
      for (const { source, body, path } of loaded) {
        const asOf = snapshotStampOf(body);
        const count = await market.importSnapshot(source, body, asOf);
        deps.stdout.write(`Imported ${count} records into ${source} from ${path} (asOf ${asOf?.toISOString() ?? 'unknown'}).\n`);
      }
      return 0;
    });
  },
};

export const researchExport: CliCommand = {
  name: 'research export',
  usage: 'gatehouse research export DIR',
  summary: 'Write the stored research snapshot (pools.json, stablecoins.json, protocols.json) to DIR.',
  async run(argv, deps) {
    const { positionals } = parseCommandArgs(argv, {});
    if (positionals.length !== 1) throw new CliUsageError('Give exactly one output directory');
    const dir = positionals[0]!;
    return withMarket(deps, async (market) => {
      await mkdir(dir, { recursive: true });
      let written = 0;
      for (const { source, file } of FILES) {
        const snap = await market.exportSnapshot(source);
        if (!snap) {
          deps.stderr.write(`research export: no ${source} snapshot stored; ${file} not written\n`);
          continue;
        }
        await writeFile(join(dir, file), JSON.stringify(snap.body));
        deps.stdout.write(`Wrote ${join(dir, file)} (asOf ${snap.asOf?.toISOString() ?? 'unknown'}).\n`);
        written++;
      }
      return written === 0 ? 1 : 0;
    });
  },
};

export const commands: CliCommand[] = [researchImport, researchExport];
