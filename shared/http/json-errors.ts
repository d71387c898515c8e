import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../log.ts';

/** An error whose status and body are meant for the client. Anything else is a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The single map from thrown errors to the wire. Body-parser failures (malformed JSON, a body
 * over the limit, a wrong content type) become clear 4xx JSON; anything unexpected becomes a
 * generic 500 — the stack goes to the log, never to the client.
 */
export function jsonErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) {
      res.status(err.status).json({ error: err.code, error_description: err.message, ...err.extra });
      return;
    }
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') {
      res.status(400).json({ error: 'invalid_request', error_description: 'The request body is not valid JSON' });
      return;
    }
    if (type === 'entity.too.large') {
      const limit = (err as { limit?: number }).limit;
      res.status(413).json({ error: 'payload_too_large', error_description: `The request body exceeds ${limit} bytes` });
      return;
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      res.status(415).json({ error: 'unsupported_media_type', error_description: 'Unsupported body encoding' });
      return;
    }
    logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'server_error', error_description: 'Internal server error' });
  };
}

export const jsonNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ error: 'not_found', error_description: `No route for ${req.method} ${req.path}` });
};
