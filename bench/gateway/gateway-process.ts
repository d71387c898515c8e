/**
 * The benchmark's gateway in its own process, as in a deployment: auth and the gateway on one
 * database (PGlite in memory here, or DATABASE_URL), with the upstream named by BENCH_UPSTREAM_URL
 * registered as `ext`. Prints `{url, key}` (the gateway's /mcp and a connector key) on stdout and
 * runs until SIGTERM, then exits cleanly so a `--cpu-prof` profile is written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayBench } from './gateway-stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'gwb-'));
writeFileSync(join(dir, 'gateway.config.json'), JSON.stringify({ upstreams: [] }));
process.env.GATEWAY_CONFIG = join(dir, 'gateway.config.json');
const bench = await startGatewayBench(process.env.BENCH_UPSTREAM_URL!);
process.stdout.write(`${JSON.stringify({ url: bench.url, key: bench.key, db: bench.db })}\n`);
const stop = () => void bench.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
