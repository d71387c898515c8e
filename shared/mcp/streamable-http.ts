import express, { type RequestHandler, type Router } from 'express';
import {
  ErrorCode,
  isJSONRPCNotification,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Guard } from '../auth/guard.ts';
import { requireBearer, sessionOf } from '../auth/require-bearer.ts';
import type { Logger } from '../log.ts';
import type { ToolServer } from './tool-server.ts';

export interface StreamableHttpOptions {
  readonly toolServer: ToolServer;
  readonly guard: Guard;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /** Test and benchmark switch: admit every request with this session, skipping the guard. */
  readonly dangerouslyDisableGuard?: import('../auth/session.ts').Session;
}

function jsonRpcError(res: express.Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/**
 * Stateless Streamable HTTP at `/mcp` (MCP transport spec): POST carries JSON-RPC and is answered
 * with JSON; GET and DELETE are 405 because there is no server-push stream and no session to end;
 * a body of notifications only is 202. The guard runs before the method check, so a request
 * with no credential is always 401 (RS-1) and one with a valid connector key never is (RS-12).
 */
export function streamableHttpRouter(options: StreamableHttpOptions): Router {
  const { toolServer, guard, logger } = options;
  const router = express.Router();
  const guardMiddleware: RequestHandler = options.dangerouslyDisableGuard
    ? (req, _res, next) => {
        (req as unknown as Record<symbol, unknown>)[Symbol.for('gatehouse.session.override')] = true;
        next();
      }
    : requireBearer(guard, logger);
  const sessionFor = (req: express.Request) => options.dangerouslyDisableGuard ?? sessionOf(req);

  const checkProtocolVersion: RequestHandler = (req, res, next) => {
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      jsonRpcError(res, 400, ErrorCode.InvalidRequest, `Unsupported MCP-Protocol-Version: ${String(version).slice(0, 40)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
      return;
    }
    next();
  };

  const checkMediaTypes: RequestHandler = (req, res, next) => {
    if (!req.is('application/json')) {
      jsonRpcError(res, 415, ErrorCode.InvalidRequest, 'Content-Type must be application/json');
      return;
    }
    // Clients MUST accept both JSON and SSE; we answer JSON only, so JSON (or */*) is what matters.
    // A missing Accept is tolerated so a plain curl works.
    const accept = req.headers.accept;
    if (accept && !/application\/json|\*\/\*|application\/\*/i.test(accept)) {
      jsonRpcError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: the client must accept application/json');
      return;
    }
    next();
  };

  const jsonBody = express.json({ limit: options.maxBodyBytes, strict: false, type: () => true });
  // Body-parser failures answered in JSON-RPC's own terms: -32700 for unparseable JSON, and a
  // JSON 413 naming the limit for oversized bodies. Nothing reaches the server in either case.
  const parseBody: RequestHandler = (req, res, next) => {
    jsonBody(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        jsonRpcError(res, 413, ErrorCode.InvalidRequest, `Request body exceeds ${options.maxBodyBytes} bytes`);
      } else if (type === 'entity.parse.failed') {
        jsonRpcError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
      } else next(err);
    });
  };

  router.all('/mcp', guardMiddleware, (req, res, next) => {
    if (req.method === 'POST') return next();
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ConnectionClosed, message: 'Method not allowed: this server is stateless and answers POST only' } });
  });

  router.post('/mcp', checkProtocolVersion, checkMediaTypes, parseBody, async (req, res) => {
    const session = sessionFor(req);
    const raw: unknown = req.body;
    const batch = Array.isArray(raw);
    const items = batch ? (raw as unknown[]) : [raw];
    if (items.length === 0) {
      jsonRpcError(res, 400, ErrorCode.InvalidRequest, 'Empty batch');
      return;
    }
    const messages: JSONRPCMessage[] = [];
    for (const item of items) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) {
        const id = (item as { id?: unknown } | null)?.id;
        res.status(400).json({
          jsonrpc: '2.0',
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          error: { code: ErrorCode.InvalidRequest, message: 'Invalid JSON-RPC message' },
        });
        return;
      }
      messages.push(parsed.data);
    }
    const requests = messages.filter(isJSONRPCRequest);
    for (const message of messages) if (isJSONRPCNotification(message)) toolServer.notify(message, session);
    if (requests.length === 0) {
      res.status(202).end();
      return;
    }
    const replies = await Promise.all(requests.map((m) => toolServer.request(m, session)));
    res.status(200).json(batch ? replies : replies[0]);
  });

  return router;
}
