import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError, type CliDeps } from '../../shared/cli.ts';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';
import { commands } from '../../services/gateway/src/cli.ts';
import { listUpstreams } from '../../services/gateway/src/store/upstream-store.ts';
import { openTestDb } from '../support/test-db.ts';

let db: Awaited<ReturnType<typeof openTestDb>>;
let out = '';
let deps: CliDeps;
const run = (name: string, argv: string[]) => commands.find((c) => c.name === name)!.run(argv, deps);

beforeAll(async () => {
  db = await openTestDb();
  const stdout = new PassThrough();
  stdout.on('data', (c) => (out += String(c)));
  deps = { config: loadConfig({}), logger: createLogger('silent'), openDb: async () => Object.assign(Object.create(db), { close: async () => {} }), stdout, stderr: new PassThrough() };
}, 180_000);
afterAll(async () => db?.close());

describe('gatehouse registry (CLI)', () => {
  it('add → list → remove', async () => {
    expect(await run('registry add', ['--name', 'wx', '--url', 'https://wx.example/mcp', '--prefix', 'wx', '--category', 'weather', '--category', 'general', '--tier', 'free', '--cost-micro-usdc', '0', '--timeout-ms', '5000'])).toBe(0);
    const [u] = await listUpstreams(db);
    expect(u).toMatchObject({ name: 'wx', prefix: 'wx', categories: ['weather', 'general'], tier: 'free', costMicroUsdc: 0, timeoutMs: 5000, auth: { kind: 'none' } });
    out = '';
    expect(await run('registry list', [])).toBe(0);
    expect(out).toContain('wx  wx_*  https://wx.example/mcp');
    expect(await run('registry refresh', ['wx'])).toBe(0);
    expect(await run('registry remove', ['wx'])).toBe(0);
    expect(await listUpstreams(db)).toEqual([]);
  });

  it.each([
    [['--name', 'x', '--url', 'https://x.example/mcp'], /required/],
    [['--name', 'x', '--url', 'https://x.example/mcp', '--prefix', 'Bad-Prefix'], /prefix/],
    [['--name', 'x', '--url', 'not a url', '--prefix', 'x'], /url/],
    [['--name', 'x', '--url', 'https://x.example/mcp', '--prefix', 'x', '--timeout-ms', 'soon'], /whole number/],
  ])('refuses bad arguments %j and registers nothing', async (argv, message) => {
    await expect(run('registry add', argv)).rejects.toThrow(CliUsageError);
    await expect(run('registry add', argv)).rejects.toThrow(message);
    expect(await listUpstreams(db)).toEqual([]);
  });
});
