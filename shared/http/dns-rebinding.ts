import type { RequestHandler } from 'express';

export interface DnsRebindingOptions {
  readonly publicUrl: string;
  readonly port: number;
  readonly extraHosts: readonly string[];
  readonly extraOrigins: readonly string[];
}

/**
 * DNS-rebinding protection for local servers (MCP transport spec, RS-16): a web page that
 * rebinds its own name to 127.0.0.1 arrives with a foreign Host and Origin. Both are checked
 * against the public URL and the loopback names for this port, before any body is read.
 */
export function dnsRebindingProtection(options: DnsRebindingOptions): RequestHandler {
  const publicUrl = new URL(options.publicUrl);
  const loopbacks = ['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${options.port}`);
  const hosts = new Set([publicUrl.host, ...loopbacks, ...options.extraHosts].map((h) => h.toLowerCase()));
  const origins = new Set(
    [publicUrl.origin, ...loopbacks.map((h) => `http://${h}`), ...options.extraOrigins].map((o) => o.toLowerCase()),
  );
  return (req, res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      res.status(403).json({ error: 'forbidden', error_description: `Host header not allowed: ${host.slice(0, 100)}` });
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      res.status(403).json({ error: 'forbidden', error_description: 'Origin not allowed' });
      return;
    }
    next();
  };
}
