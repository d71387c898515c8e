import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixturePools, fixtureProtocols, fixtureStablecoins } from './defillama-fixtures.ts';

type Route = '/pools' | '/stablecoins' | '/protocols';

export interface FakeDefillama {
  readonly url: string;
  /** Requests served per route (including failures). */
  readonly hits: Record<Route, number>;
  /** Per-route HTTP status to answer with (e.g. 503 to play "upstream down"). */
  status: Record<Route, number>;
  /** Per-route Last-Modified (data vintage); undefined = header omitted. */
  lastModified: Partial<Record<Route, Date>>;
  body: { pools: unknown; stablecoins: unknown; protocols: unknown };
  close(): Promise<void>;
}

/** A local HTTP server that plays DefiLlama's three endpoints, serving the fixtures. */
export async function startFakeDefillama(): Promise<FakeDefillama> {
  const fake = {
    hits: { '/pools': 0, '/stablecoins': 0, '/protocols': 0 },
    status: { '/pools': 200, '/stablecoins': 200, '/protocols': 200 },
    lastModified: {} as Partial<Record<Route, Date>>,
    body: { pools: { status: 'success', data: fixturePools() }, stablecoins: fixtureStablecoins(), protocols: fixtureProtocols() } as FakeDefillama['body'],
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] as Route;
    if (!(path in fake.hits)) {
      res.writeHead(404).end();
      return;
    }
    fake.hits[path]++;
    const status = fake.status[path];
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    const body = path === '/pools' ? fake.body.pools : path === '/stablecoins' ? fake.body.stablecoins : fake.body.protocols;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const lm = fake.lastModified[path];
    if (lm) headers['last-modified'] = lm.toUTCString();
    res.writeHead(200, headers).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
