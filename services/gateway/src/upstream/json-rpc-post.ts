import { request as httpRequest, type Agent, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { UpstreamCallAbortedError, UpstreamProtocolError, UpstreamTimeoutError } from './upstream-errors.ts';

/** A JSON-RPC message as read off the wire; only its shape is checked here. */
export interface JsonRpcIncoming {
  readonly jsonrpc?: string;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { code?: unknown; message?: unknown };
}

export interface JsonRpcPost {
  readonly url: URL;
  /** A keep-alive agent shared by every call to this upstream. */
  readonly agent: Agent;
  readonly headers: OutgoingHttpHeaders;
  /** The request id in `body`, to pick our answer out of a stream. */
  readonly id: number;
  readonly body: string;
  /** Absolute deadline (epoch ms); the request is abandoned there with UpstreamTimeoutError. */
  readonly deadlineMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly maxResponseBytes: number;
  /** Server notifications that ride the response stream (e.g. `notifications/tools/list_changed`). */
  readonly onNotification?: (message: JsonRpcIncoming) => void;
  /**
   * Send again once if a reused keep-alive socket turns out to be closed before any answer.
   * Only for calls that may run twice (read-only tools): the usual cause is the server closing
   * an idle connection as we reused it, but a server that crashed after reading the request
   * looks the same from here.
   */
  readonly retryOnStaleSocket?: boolean;
}

/** A reused keep-alive socket the server closed just before we wrote: safe to send again once. */
class StaleSocketError extends Error {}

/**
 * Posts one JSON-RPC request to a Streamable HTTP endpoint and resolves with the matching
 * response message, whether the server answers `application/json` or `text/event-stream`.
 *
 * This is the gateway's hot path, so it is plain node:http over a keep-alive agent rather than
 * the SDK client's fetch/web-streams transport (which cost about 1.7 ms of CPU per call and
 * hung an abort listener per call on the transport's long-lived AbortSignal). The deadline and
 * the caller's signal are per call, and every listener added here is removed before it returns.
 */
export async function postJsonRpcRequest(post: JsonRpcPost): Promise<JsonRpcIncoming> {
  try {
    return await attempt(post);
  } catch (err) {
    if (!(err instanceof StaleSocketError)) throw err;
    // A reused keep-alive connection was reset before any byte of answer: most likely the
    // server closed it as idle while we wrote. A fresh connection settles it, where a retry is safe.
    if (post.retryOnStaleSocket) return attempt(post);
    throw new UpstreamProtocolError(`request failed: ${err.message}`);
  }
}

function attempt(post: JsonRpcPost): Promise<JsonRpcIncoming> {
  return new Promise<JsonRpcIncoming>((resolve, reject) => {
    if (post.signal?.aborted) return reject(new UpstreamCallAbortedError('the caller went away'));
    const remainingMs = post.deadlineMs - Date.now();
    if (remainingMs <= 0) return reject(new UpstreamTimeoutError('deadline passed before the call was sent'));
    let settled = false;
    let answered = false;
    const send = post.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(post.url, { method: 'POST', agent: post.agent, headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body) } });

    const onAbort = () => finish(new UpstreamCallAbortedError('the caller went away'));
    const timer = setTimeout(() => finish(new UpstreamTimeoutError(`no answer within the deadline`)), remainingMs);
    post.signal?.addEventListener('abort', onAbort, { once: true });

    function finish(err: Error | null, reply?: JsonRpcIncoming, res?: IncomingMessage): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      post.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
        return;
      }
      // Our answer is in; an SSE stream should end right after it. If it does not, free the socket.
      if (res && !res.complete) setTimeout(() => res.complete || res.destroy(), 1_000).unref();
      resolve(reply!);
    }

    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered && req.reusedSocket && err.code === 'ECONNRESET') finish(new StaleSocketError(err.message));
      else finish(new UpstreamProtocolError(`request failed: ${err.code ?? err.message}`));
    });
    req.on('response', (res) => {
      answered = true;
      res.on('error', (err) => finish(new UpstreamProtocolError(`answer broken off: ${err.message}`)));
      res.on('aborted', () => finish(new UpstreamProtocolError('answer broken off')));
      const type = String(res.headers['content-type'] ?? '').toLowerCase();
      if (res.statusCode !== 200) {
        res.resume();
        return finish(new UpstreamProtocolError(`HTTP ${res.statusCode}`, res.statusCode));
      }
      if (type.startsWith('application/json')) readJson(res, post, finish);
      else if (type.startsWith('text/event-stream')) readEventStream(res, post, finish);
      else {
        res.resume();
        finish(new UpstreamProtocolError(`unexpected content type ${type.slice(0, 60) || '(none)'}`));
      }
    });
    req.end(post.body);
  });
}

type Finish = (err: Error | null, reply?: JsonRpcIncoming, res?: IncomingMessage) => void;

function isOurAnswer(message: JsonRpcIncoming, id: number): boolean {
  return message.id === id && (message.result !== undefined || message.error !== undefined);
}

function readJson(res: IncomingMessage, post: JsonRpcPost, finish: Finish): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > post.maxResponseBytes) return finish(new UpstreamProtocolError(`answer larger than ${post.maxResponseBytes} bytes`));
    chunks.push(chunk);
  });
  res.on('end', () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch {
      return finish(new UpstreamProtocolError('answer is not valid JSON'));
    }
    const messages = (Array.isArray(parsed) ? parsed : [parsed]) as JsonRpcIncoming[];
    const reply = messages.find((m) => typeof m === 'object' && m !== null && isOurAnswer(m, post.id));
    finish(reply ? null : new UpstreamProtocolError('answer does not carry a response to our request'), reply);
  });
}

/** Server-Sent Events (the MCP Streamable HTTP response stream): each event's data is one JSON-RPC message. */
function readEventStream(res: IncomingMessage, post: JsonRpcPost, finish: Finish): void {
  res.setEncoding('utf8');
  let buffer = '';
  let size = 0;
  let done = false;
  res.on('data', (chunk: string) => {
    if (done) return;
    size += chunk.length;
    if (size > post.maxResponseBytes) return finish(new UpstreamProtocolError(`answer larger than ${post.maxResponseBytes} bytes`));
    buffer += chunk;
    for (;;) {
      const end = /\r?\n\r?\n/.exec(buffer);
      if (!end) break;
      const event = buffer.slice(0, end.index);
      buffer = buffer.slice(end.index + end[0].length);
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (!data) continue;
      let message: JsonRpcIncoming;
      try {
        message = JSON.parse(data) as JsonRpcIncoming;
      } catch {
        continue; // Not a JSON-RPC message; the spec allows nothing else, so skip it.
      }
      if (typeof message !== 'object' || message === null) continue;
      if (isOurAnswer(message, post.id)) {
        done = true;
        return finish(null, message, res);
      }
      if (message.method !== undefined && message.id === undefined) post.onNotification?.(message);
    }
  });
  res.on('end', () => finish(new UpstreamProtocolError('stream ended without a response to our request')));
}
