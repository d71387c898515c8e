import type { RequestHandler } from 'express';

export interface DnsRebindingOptions {
  readonly publicUrl: string;
  readonly extraHosts: readonly string[];
  readonly extraOrigins: readonly string[];
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(hostHeader: string): string {
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0]!;
}

/**
 * DNS-rebinding protection (MCP transport spec, RS-16): a web page that rebinds its own name to
 * 127.0.0.1 arrives carrying that foreign name in Host and its own Origin. Requests are admitted
 * only when Host names a loopback address (any port: a rebinding attacker cannot forge those) or
 * the configured public host, and any Origin present is loopback or configured. Checked before
 * any body is read. `hostOriginCheck` is the framework-free rule; `dnsRebindingProtection` its
 * express middleware.
 */
export function hostOriginCheck(options: DnsRebindingOptions): (host: string | undefined, origin: string | undefined) => string | null {
  const publicUrl = new URL(options.publicUrl);
  const hosts = new Set([publicUrl.host, ...options.extraHosts].map((h) => h.toLowerCase()));
  const origins = new Set([publicUrl.origin, ...options.extraOrigins].map((o) => o.toLowerCase()));
  const hostAllowed = (host: string) => hosts.has(host) || LOOPBACK_HOSTNAMES.has(hostnameOf(host));
  const originAllowed = (origin: string) => {
    if (origins.has(origin)) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.has(url.hostname);
    } catch {
      return false;
    }
  };
  return (host, origin) => {
    if (!hostAllowed((host ?? '').toLowerCase())) return 'Host header not allowed';
    if (origin !== undefined && !originAllowed(origin.toLowerCase())) return 'Origin not allowed';
    return null;
  };
}

/** The 403 body both the express middleware and the MCP front door send. */
export function dnsRebindingBody(description: string): Record<string, string> {
  return { error: 'forbidden', error_description: description };
}

export function dnsRebindingProtection(options: DnsRebindingOptions): RequestHandler {
  const check = hostOriginCheck(options);
  return (req, res, next) => {
    const refused = check(req.headers.host, req.headers.origin);
    if (refused) {
      res.status(403).json(dnsRebindingBody(refused));
      return;
    }
    next();
  };
}
