/**
 * What can go wrong on a call to an upstream, as types the call router maps to runtime states
 * (route-call.ts is the one place that turns them into results).
 */

/** The upstream did not answer within its timeout. */
export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
}

/** The upstream's concurrency limit and its queue are full. */
export class UpstreamBusyError extends Error {
  override name = 'UpstreamBusyError';
}

/** The caller went away (its request was aborted); says nothing about the upstream's health. */
export class UpstreamCallAbortedError extends Error {
  override name = 'UpstreamCallAbortedError';
}

/** The upstream answered with a JSON-RPC error; `code` is the JSON-RPC code (-32602: invalid params). */
export class UpstreamRpcError extends Error {
  override name = 'UpstreamRpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The upstream answered, but not with a usable MCP answer: an HTTP error status, a wrong media type, a malformed or oversized body. */
export class UpstreamProtocolError extends Error {
  override name = 'UpstreamProtocolError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
