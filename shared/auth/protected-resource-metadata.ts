import type { Router } from 'express';
import express from 'express';

export interface ProtectedResourceMetadataOptions {
  readonly resource: string;
  readonly issuer: string;
  readonly scopesSupported: readonly string[];
  readonly resourceName: string;
}

/** RFC 9728 §3.1: the metadata URL inserts the well-known segment before the resource path. */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/**
 * Serves the document at both the path-inserted location and the root: one MCP server per
 * host, so the root document describes this host's one resource and never another's (RS-4).
 */
export function protectedResourceMetadataRouter(options: ProtectedResourceMetadataOptions): Router {
  const document = Object.freeze({
    resource: options.resource,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: [...options.scopesSupported],
    resource_name: options.resourceName,
  });
  const router = express.Router();
  const path = new URL(options.resource).pathname;
  const serve: express.RequestHandler = (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(document);
  };
  router.get('/.well-known/oauth-protected-resource', serve);
  if (path !== '/') router.get(`/.well-known/oauth-protected-resource${path}`, serve);
  return router;
}
