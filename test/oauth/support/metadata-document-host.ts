import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (path: string) => { status?: number; headers?: Record<string, string>; body?: string; hang?: boolean } | undefined;

/** A loopback web server standing in for a client's metadata-document host (claude.ai). */
export async function startDocumentHost(route: Route): Promise<{ origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const answer = route(req.url ?? '/');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    if (answer.hang) return; // never answers: the fetch must time out
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** claude.ai's client metadata document, as published, re-homed at `url`. */
export function claudeAiDocument(url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: url,
    client_name: 'Claude',
    client_uri: 'https://claude.ai',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  };
}
