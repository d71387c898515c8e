/**
 * The benchmark's reference ceiling: a pass-through HTTP proxy in its own process — node:http,
 * a keep-alive agent, the body forwarded as bytes and the answer piped back. It does no MCP, no
 * auth, no firewall, no receipt: the least any process in the gateway's place can cost, so its
 * ratio is the best a gateway could reach on this machine with this upstream and load
 * generator. Prints `{url}` and runs until SIGTERM.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const target = new URL(process.env.BENCH_UPSTREAM_URL!);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const out = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: String(req.headers.accept ?? 'application/json'), 'content-length': body.length } }, (up) => {
      res.writeHead(up.statusCode ?? 502, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
      up.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    out.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
