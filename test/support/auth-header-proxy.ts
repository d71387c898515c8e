import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy that adds `Authorization: Bearer <key>` to every request, for tools (like the
 * official conformance suite) that cannot send a header themselves. The proxy's own loopback
 * Host is rewritten to the target's; any other Host or Origin passes through untouched, so the
 * server's DNS-rebinding checks still see what the client sent.
 */
export async function startAuthHeaderProxy(target: string, bearer: string): Promise<{ url: string; close(): Promise<void> }> {
  const targetUrl = new URL(target);
  let ownPort = 0;
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${bearer}` };
    const host = (req.headers.host ?? '').toLowerCase();
    if ([`127.0.0.1:${ownPort}`, `localhost:${ownPort}`, `[::1]:${ownPort}`].includes(host)) headers.host = targetUrl.host;
    const upstream = request(
      { hostname: targetUrl.hostname, port: targetUrl.port, method: req.method, path: targetUrl.pathname + (req.url?.replace(/^\/mcp/, '') ?? ''), headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ownPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${ownPort}/mcp`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
