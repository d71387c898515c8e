import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startStack, type Stack } from '../support/stack.ts';
import { countRows } from './support/oauth-test-kit.ts';

// Each file starts its own stack (PGlite + migrations); slow under a loaded machine.
vi.setConfig({ hookTimeout: 240_000, testTimeout: 120_000 });

const MCP_REMOTE_CLIENT = fileURLToPath(new URL('../../node_modules/mcp-remote/dist/client.js', import.meta.url));
const HEADLESS_BROWSER = fileURLToPath(new URL('./support/headless-browser.mjs', import.meta.url));

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ services: ['gateway'] });
  await stack.createUser({ email: 'remote@example.com' });
});
afterAll(async () => stack?.close());

function findFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? findFiles(path, suffix) : name.endsWith(suffix) ? [path] : [];
  });
}

async function runMcpRemoteClient(extraArgs: string[]): Promise<{ code: number | null; output: string; configDir: string }> {
  const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'));
  // xdg-open (through mcp-remote's `open`) runs $BROWSER with the URL when no desktop is present.
  const browserScript = join(configDir, 'browser.sh');
  writeFileSync(browserScript, `#!/bin/sh\nexec "${process.execPath}" "${HEADLESS_BROWSER}" "$1" >>"${configDir}/browser.log" 2>&1\n`);
  chmodSync(browserScript, 0o755);
  const callbackPort = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: configDir,
    MCP_REMOTE_CONFIG_DIR: configDir,
    BROWSER: browserScript,
    GH_TEST_AUTH_ORIGIN: stack.url('auth'),
    GH_TEST_EMAIL: 'remote@example.com',
    GH_TEST_PASSWORD: 'correct horse battery staple',
  };
  const child = spawn(process.execPath, [MCP_REMOTE_CLIENT, stack.url('gateway'), String(callbackPort), ...extraArgs], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  // stdin stays open: mcp-remote-client shuts down when it ends.
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, output, configDir };
}

describe('mcp-remote 0.15.1 as a real client (CC-1, CC-2)', () => {
  it('completes DCR → consent → token headlessly and lists tools; its stored token is for this server', async () => {
    const { code, output, configDir } = await runMcpRemoteClient([]);
    expect(output).toContain('Tools:');
    expect(code).toBe(0);
    expect(await countRows(stack, 'oauth_clients')).toBe(1);
    const tokenFiles = findFiles(configDir, '_tokens.json');
    expect(tokenFiles.length).toBe(1);
    const stored = JSON.parse(readFileSync(tokenFiles[0]!, 'utf8')) as { access_token: string; refresh_token?: string };
    const claims = JSON.parse(Buffer.from(stored.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims.aud).toBe(stack.url('gateway'));
    expect(stored.refresh_token).toBeTruthy();
  });

  it('with a connector key header it connects without any OAuth step (CC-2)', async () => {
    const { api_key } = await stack.createKey('remote@example.com');
    const consentsBefore = await countRows(stack, 'oauth_consent_requests');
    const clientsBefore = await countRows(stack, 'oauth_clients');
    const { code, output } = await runMcpRemoteClient(['--header', `Authorization: Bearer ${api_key}`]);
    expect(output).toContain('Tools:');
    expect(output).not.toContain('/oauth/authorize');
    expect(code).toBe(0);
    expect(await countRows(stack, 'oauth_consent_requests')).toBe(consentsBefore);
    expect(await countRows(stack, 'oauth_clients')).toBe(clientsBefore);
  });
});
