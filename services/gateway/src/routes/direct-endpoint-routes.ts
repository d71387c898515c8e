import express, { type Router } from 'express';
import type { Guard } from '../../../../shared/auth/guard.ts';
import type { Logger } from '../../../../shared/log.ts';
import { streamableHttpRouter } from '../../../../shared/mcp/streamable-http.ts';
import type { ToolServer } from '../../../../shared/mcp/tool-server.ts';

const CATEGORY = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * The direct endpoint (seed 003 "category endpoints"): every bridged tool under its prefixed
 * name at `/mcp/direct`, or one category's at `/mcp/direct/{category}`, for clients that want a
 * full `tools/list`. Same guard, same Streamable HTTP rules and same policy as the root.
 */
export function directEndpointRouter(options: { guard: Guard; logger: Logger; maxBodyBytes: number; viewFor: (scope: string) => ToolServer }): Router {
  const router = express.Router();
  const routers = new Map<string, Router>();
  const routerFor = (scope: string): Router => {
    let r = routers.get(scope);
    if (!r) {
      r = streamableHttpRouter({ toolServer: options.viewFor(scope), guard: options.guard, logger: options.logger, maxBodyBytes: options.maxBodyBytes });
      if (routers.size < 200) routers.set(scope, r);
    }
    return r;
  };
  router.use('/mcp/direct', (req, res, next) => {
    const rest = req.path.replace(/^\/+|\/+$/g, '');
    if (rest !== '' && !CATEGORY.test(rest)) return next();
    req.url = '/mcp';
    routerFor(rest === '' ? '*' : rest)(req, res, next);
  });
  return router;
}
