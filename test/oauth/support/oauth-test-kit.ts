import { createHash, randomBytes } from 'node:crypto';
import type { Stack } from '../../support/stack.ts';

/**
 * What a browser does in the OAuth tests, with fetch and a cookie jar: sign in through the web
 * app's form, follow /oauth/authorize to the consent page, and submit Approve or Deny. No
 * redirect to a client is ever followed; the Location is returned for the test to inspect.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(url: string): Promise<Response> {
    const res = await fetch(new URL(url, this.origin), { redirect: 'manual', headers: { cookie: this.cookieHeader() } });
    this.remember(res);
    return res;
  }

  async postForm(url: string, form: Record<string, string>): Promise<Response> {
    const res = await fetch(new URL(url, this.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: this.origin },
      body: new URLSearchParams(form),
    });
    this.remember(res);
    return res;
  }

  async signIn(email: string, password: string): Promise<void> {
    const page = await (await this.get('/login')).text();
    const res = await this.postForm('/login', { csrf: hiddenField(page, 'csrf'), email, password });
    if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  }

  /** GET the authorization URL; returns the consent page (following only same-origin hops). */
  async openAuthorization(url: string): Promise<{ status: number; location: string | null; page: string; requestId: string | null; csrf: string | null }> {
    let res = await this.get(url);
    let location = res.headers.get('location');
    // Follow our own hops (authorize → consent, consent → login → consent); never the client's.
    while ((res.status === 302 || res.status === 303) && location && new URL(location, this.origin).origin === this.origin) {
      res = await this.get(location);
      location = res.headers.get('location');
    }
    const page = await res.text();
    const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? null;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? null;
    return { status: res.status, location, page, requestId, csrf };
  }

  async decide(requestId: string, csrf: string, decision: 'approve' | 'deny'): Promise<Response> {
    return this.postForm('/oauth/consent', { csrf, request: requestId, decision });
  }

  /** authorize → consent → Approve; returns the client redirect it produced (not followed). */
  async approve(url: string): Promise<URL> {
    const opened = await this.openAuthorization(url);
    if (!opened.requestId || !opened.csrf) throw new Error(`no consent page: ${opened.status} ${opened.location ?? ''} ${opened.page.slice(0, 300)}`);
    const res = await this.decide(opened.requestId, opened.csrf, 'approve');
    if (res.status !== 303) throw new Error(`consent failed: ${res.status} ${await res.text()}`);
    return new URL(res.headers.get('location')!);
  }
}

export function hiddenField(page: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];
  if (value === undefined) throw new Error(`no ${name} field`);
  return value;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(stack: Stack, metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.url('auth')}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function registerPublicClient(stack: Stack, redirectUris: string[] = ['http://127.0.0.1/callback'], extra: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await registerClient(stack, {
    client_name: 'Test client',
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...extra,
  });
  if (status !== 201) throw new Error(`registration failed: ${status} ${JSON.stringify(body)}`);
  return body.client_id as string;
}

export function authorizeUrl(stack: Stack, params: Record<string, string | undefined>): string {
  const url = new URL(`${stack.url('auth')}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

export async function tokenRequest(stack: Stack, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const res = await fetch(`${stack.url('auth')}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Count rows of an auth table, to assert that nothing happened. */
export async function countRows(stack: Stack, table: 'oauth_grants' | 'oauth_codes' | 'oauth_refresh_tokens' | 'oauth_access_tokens' | 'oauth_clients' | 'oauth_consent_requests'): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const rows = await stack.db.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`));
  return Number(rows[0]!.n);
}

/**
 * One complete grant for `resource` through the real endpoints: register (unless given a
 * client), authorize, consent as a signed-in browser, exchange the code.
 */
export async function obtainTokens(
  stack: Stack,
  browser: TestBrowser,
  options: { resource: string; clientId?: string; redirectUri?: string; scope?: string },
): Promise<{ clientId: string; redirectUri: string; tokens: Record<string, unknown> }> {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:45678/callback';
  const clientId = options.clientId ?? (await registerPublicClient(stack, ['http://127.0.0.1/callback']));
  const { verifier, challenge } = pkcePair();
  const callback = await browser.approve(
    authorizeUrl(stack, {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: options.resource,
      state: 'st',
      scope: options.scope,
    }),
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const res = await tokenRequest(stack, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId, resource: options.resource });
  if (res.status !== 200) throw new Error(`token failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { clientId, redirectUri, tokens: res.body };
}

export async function callMcp(url: string, bearer: string, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
