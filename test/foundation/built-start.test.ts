import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });

/**
 * `npm run build` is how production runs the services without tsx (the Dockerfile's image). This
 * builds into a scratch folder and drives the output as an operator would: the CLI migrates and
 * creates an account and a connector key, `services/main.js` serves auth and research, and the
 * SDK client calls a research tool through the guard. A data file the build forgot to copy, or an
 * import left pointing at a `.ts` file, fails here rather than in a container.
 */
describe('the compiled build (npm run build) runs the product without tsx', () => {
  // Inside the repository so the output resolves packages from its node_modules, like dist/ does.
  const out = mkdtempSync(join(ROOT, 'node_modules/.cache/gatehouse-build-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-built-data-'));
  const schema = process.env.DATABASE_URL ? `built_${randomBytes(5).toString('hex')}` : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(schema ? { DATABASE_SCHEMA: schema } : {}) };
  let server: ChildProcess | undefined;

  const cli = (...args: string[]) => spawnSync(process.execPath, [join(out, 'services/cli/main.js'), ...args], { env, encoding: 'utf8' });

  beforeAll(() => {
    const built = spawnSync(process.execPath, [join(ROOT, 'services/cli/build.js'), out], { encoding: 'utf8' });
    expect(built.status, built.stderr + built.stdout).toBe(0);
  });

  afterAll(async () => {
    server?.kill('SIGTERM');
    rmSync(out, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const admin = postgres(process.env.DATABASE_URL!, { onnotice: () => {}, max: 1 });
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  it('emits JavaScript only, with the data files the code opens beside it', () => {
    for (const file of ['services/main.js', 'services/cli/main.js', 'shared/db/migrate.js', 'services/research/data/protocol-priors.v1.json', 'services/gateway/gateway.config.json', 'migrations/auth']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    const leftovers = spawnSync('grep', ['-rlE', `from ['"]\\.{1,2}/[^'"]+\\.ts['"]`, join(out, 'services'), join(out, 'shared')], { encoding: 'utf8' });
    expect(leftovers.stdout).toBe('');
  });

  it('serves auth and research; the CLI migrates and mints a key the guard accepts', async () => {
    const migrated = cli('migrate');
    expect(migrated.stdout, migrated.stderr).toContain('Migrations are up to date.');
    const user = cli('users', 'add', '--email', 'built@example.com', '--password', 'correct horse battery');
    expect(user.status, user.stderr).toBe(0);
    const minted = cli('keys', 'create', '--email', 'built@example.com', '--kind', 'connector');
    expect(minted.status, minted.stderr).toBe(0);
    const key = minted.stdout.trim();

    const [authPort, researchPort] = [await freePort(), await freePort()];
    const ports = { PORT_AUTH: String(authPort), PORT_RESEARCH: String(researchPort), PUBLIC_URL_AUTH: '', PUBLIC_URL_RESEARCH: '' };
    // No network here: DefiLlama is pointed at a closed port, so research answers from no data.
    const closed = `http://127.0.0.1:${await freePort()}`;
    server = spawn(process.execPath, [join(out, 'services/main.js'), 'auth', 'research'], {
      env: { ...env, ...ports, DEFILLAMA_YIELDS_URL: closed, DEFILLAMA_STABLECOINS_URL: closed, DEFILLAMA_API_URL: closed },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout!.on('data', (d) => (output += d));
    server.stderr!.on('data', (d) => (output += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`built services did not start:\n${output}`)), 60_000);
      server!.stdout!.on('data', () => output.includes('Gatehouse is running') && (clearTimeout(timer), resolve()));
      server!.once('exit', (code) => reject(new Error(`built services exited (${code}):\n${output}`)));
    });

    const health = await fetch(`http://127.0.0.1:${researchPort}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { service: string }).service).toBe('research');

    const client = new Client({ name: 'built-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${researchPort}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('list_yields');
    const result = await client.callTool({ name: 'health', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { ok: boolean }).ok).toBe(true);
    await client.close();
  });
});
