import express, { type Router } from 'express';
import type { Guard } from '../../../../shared/auth/guard.ts';
import { requireBearer, sessionOf } from '../../../../shared/auth/require-bearer.ts';
import type { Logger } from '../../../../shared/log.ts';
import { toOpenAiTools } from '../domain/openai-export.ts';
import type { CallerView } from '../registry/caller-view.ts';
import { advertisedTool } from '../registry/tool-catalog.ts';

/**
 * `GET /registry/tools?format=openai|mcp[&category=c]`: the caller's tools (same policy as
 * `tools/list`) as OpenAI function-calling definitions (seed 004 `toOpenAITools`) or MCP tools.
 */
export function toolExportRouter(deps: { guard: Guard; logger: Logger; view: CallerView }): Router {
  const router = express.Router();
  router.get('/registry/tools', requireBearer(deps.guard, deps.logger), async (req, res) => {
    const format = req.query.format ?? 'mcp';
    const category = typeof req.query.category === 'string' ? req.query.category : undefined;
    if (format !== 'openai' && format !== 'mcp') {
      res.status(400).json({ error: 'invalid_request', error_description: 'format must be openai or mcp' });
      return;
    }
    const tools = (await deps.view.visibleTools(sessionOf(req), category)).map(advertisedTool);
    res.set('Cache-Control', 'no-store');
    if (format === 'openai') res.json({ tools: toOpenAiTools(tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> }))) });
    else res.json({ tools });
  });
  return router;
}
