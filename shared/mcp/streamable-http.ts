import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import {
  ErrorCode,
  isJSONRPCNotification,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { requestAuthenticator } from '../auth/authenticate-request.ts';
import type { Guard } from '../auth/guard.ts';
import type { Session } from '../auth/session.ts';
import { dnsRebindingBody, hostOriginCheck, type DnsRebindingOptions } from '../http/dns-rebinding.ts';
import type { Logger } from '../log.ts';
import type { ToolServer } from './tool-server.ts';

export interface StreamableHttpOptions {
  readonly toolServer: ToolServer;
  readonly guard: Guard;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  /**
   * Host/Origin rule checked first (DNS rebinding). Set when the handler is reached without
   * express's `dnsRebindingProtection` in front of it, i.e. from the front door.
   */
  readonly hostOrigin?: DnsRebindingOptions;
  /** Test and benchmark switch: admit every request with this session, skipping the guard. */
  readonly dangerouslyDisableGuard?: Session;
}

export type StreamableHttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers?: Record<string, string>): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

/** The request body as UTF-8 text, or why it cannot be read (the status to answer with). */
async function readBody(req: IncomingMessage, limit: number): Promise<{ text: string } | { status: 400 | 413 | 415; message: string }> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return { status: 415, message: `Content-Encoding ${encoding.slice(0, 40)} is not supported; send the JSON uncompressed` };
  const declared = Number(req.headers['content-length']);
  // A declared length over the limit is refused before a byte is read (a slow-drip upload of a
  // huge body costs nothing); a body that lies about its length is cut at the limit as it streams.
  if (declared > limit) return { status: 413, message: `Request body exceeds ${limit} bytes` };
  // Listeners rather than `for await`: an async iterator per request is measurable on this path.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd);
      req.pause();
      resolve({ status: 413, message: `Request body exceeds ${limit} bytes` });
    };
    const onEnd = () => resolve({ text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') });
    // A client that hangs up mid-body gets no answer, but the handler must not wait forever.
    const onClose = () => resolve({ status: 400, message: 'The request body ended early' });
    req.on('data', onData).on('end', onEnd).once('close', onClose).on('error', onClose);
  });
}

/** `application/json`, optionally with a UTF-8 charset, on a request that has a body. */
function jsonContentType(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return false;
  const [media, ...params] = (req.headers['content-type'] ?? '').split(';');
  if (media!.trim().toLowerCase() !== 'application/json') return false;
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='));
  return charset === undefined || /^charset="?utf-8"?$/.test(charset);
}

/**
 * Stateless Streamable HTTP (MCP transport spec) on plain node:http: POST carries JSON-RPC and is
 * answered with JSON; GET and DELETE are 405 because there is no server-push stream and no
 * session to end; a body of notifications only is 202. The guard runs before the method check,
 * so a request with no credential is always 401 (RS-1) and one with a valid connector key never
 * is (RS-12). No framework sits in this path: it is every MCP call's hot path, and express's
 * routing and body parsing cost more than the guard and the tool together.
 */
export function createStreamableHttpHandler(options: StreamableHttpOptions): StreamableHttpHandler {
  const { toolServer, logger, maxBodyBytes } = options;
  const authenticate = requestAuthenticator(options.guard, logger);
  const hostOriginRefusal = options.hostOrigin ? hostOriginCheck(options.hostOrigin) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = hostOriginRefusal?.(req.headers.host, req.headers.origin);
    if (refused) return sendJson(res, 403, dnsRebindingBody(refused));

    let session = options.dangerouslyDisableGuard;
    if (!session) {
      const admission = await authenticate(req.headers, (req.url ?? '/mcp').split('?')[0]!);
      if (!admission.ok) return sendJson(res, admission.answer.status, admission.answer.body, admission.answer.headers);
      session = admission.session;
    }

    if (req.method !== 'POST') {
      return jsonRpcError(res, 405, ErrorCode.ConnectionClosed, 'Method not allowed: this server is stateless and answers POST only', { Allow: 'POST' });
    }
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      return jsonRpcError(res, 400, ErrorCode.InvalidRequest, `Unsupported MCP-Protocol-Version: ${String(version).slice(0, 40)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
    if (!jsonContentType(req)) return jsonRpcError(res, 415, ErrorCode.InvalidRequest, 'Content-Type must be application/json');
    // Clients MUST accept both JSON and SSE; we answer JSON only, so JSON (or */*) is what matters.
    // A missing Accept is tolerated so a plain curl works.
    const accept = req.headers.accept;
    if (accept && !/application\/json|\*\/\*|application\/\*/i.test(accept)) {
      return jsonRpcError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: the client must accept application/json');
    }

    // Unreadable, oversized or unparseable bodies are answered in JSON-RPC's own terms and
    // nothing reaches the server.
    const body = await readBody(req, maxBodyBytes);
    // After a refused body the connection closes, so the rest of an endless upload is not read.
    if (!('text' in body)) return jsonRpcError(res, body.status, ErrorCode.InvalidRequest, body.message, { connection: 'close' });
    let raw: unknown;
    try {
      raw = body.text.trim() === '' ? {} : JSON.parse(body.text);
    } catch {
      return jsonRpcError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
    }

    const batch = Array.isArray(raw);
    const items = batch ? (raw as unknown[]) : [raw];
    if (items.length === 0) return jsonRpcError(res, 400, ErrorCode.InvalidRequest, 'Empty batch');
    const messages: JSONRPCMessage[] = [];
    for (const item of items) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) {
        const id = (item as { id?: unknown } | null)?.id;
        return sendJson(res, 400, {
          jsonrpc: '2.0',
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          error: { code: ErrorCode.InvalidRequest, message: 'Invalid JSON-RPC message' },
        });
      }
      messages.push(parsed.data);
    }
    const requests = messages.filter(isJSONRPCRequest);
    for (const message of messages) if (isJSONRPCNotification(message)) toolServer.notify(message, session);
    if (requests.length === 0) {
      res.writeHead(202).end();
      return;
    }
    const replies = await Promise.all(requests.map((m) => toolServer.request(m, session)));
    sendJson(res, 200, batch ? replies : replies[0]);
  };

  return async (req, res) => {
    try {
      await handle(req, res);
    } catch (err) {
      // The stack goes to the log, never to the client.
      logger.error({ err, method: req.method, path: (req.url ?? '').split('?')[0] }, 'unhandled error');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Internal server error' });
      else res.destroy();
    }
  };
}

/** The same handler at `/mcp` of an express router (the gateway's direct endpoints mount it). */
export function streamableHttpRouter(options: StreamableHttpOptions): Router {
  const handler = createStreamableHttpHandler(options);
  const router = express.Router();
  router.all('/mcp', (req, res) => handler(req, res));
  return router;
}
