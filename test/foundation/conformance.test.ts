import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceName } from '../../shared/config.ts';
import { startAuthHeaderProxy } from '../support/auth-header-proxy.ts';
import { startStack, type Stack } from '../support/stack.ts';

const run = promisify(execFile);
const MCP_SERVERS: ServiceName[] = ['research', 'knowledge', 'payments-test', 'payments-live', 'gateway'];
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/**
 * The official MCP conformance suite (it needs Node ≥ 22, fetched by npx), run against every
 * server through a loopback proxy that adds the connector key.
 */
describe('official conformance scenarios (@modelcontextprotocol/conformance@0.1.16)', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ services: MCP_SERVERS });
    await stack.createUser({ email: 'conf@example.com' });
    key = (await stack.createKey('conf@example.com')).api_key;
  });
  afterAll(() => stack?.close());

  describe.each(MCP_SERVERS)('%s', (server) => {
    it.each(SCENARIOS)('%s passes', async (scenario) => {
      const proxy = await startAuthHeaderProxy(stack.url(server), key);
      try {
        const { stdout } = await run(
          'npx',
          ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.1.16', '--', 'conformance', 'server', '--url', proxy.url, '--scenario', scenario],
          { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
        ).catch((err: { stdout?: string; stderr?: string }) => {
          throw new Error(`conformance ${scenario} failed on ${server}:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
        });
        expect(stdout).toMatch(/passed/i);
        expect(stdout).not.toMatch(/\b[1-9]\d* failed/i);
      } finally {
        await proxy.close();
      }
    }, 300_000);
  });
});
