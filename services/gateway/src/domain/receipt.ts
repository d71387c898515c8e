import { canonicalJson, sha256Hex } from './canonical-json.ts';

/** seed 003's runtime states that the gateway itself can observe. */
export type RuntimeState = 'ok' | 'invalid_input' | 'rate_limited' | 'degraded' | 'failing';

/** The first receipt of every caller's chain points at this. */
export const GENESIS_HASH = '0'.repeat(64);

/** Every field a receipt commits to. `receipt_hash` is the SHA-256 of its canonical JSON. */
export interface ReceiptBody {
  readonly receipt_id: string;
  readonly subject: string;
  readonly task_id: string | null;
  readonly upstream: string;
  readonly tool: string;
  readonly observed_at: string;
  readonly cache_age_ms: number;
  readonly input_sha256: string;
  readonly result_sha256: string;
  readonly runtime_state: RuntimeState;
  readonly prev_hash: string;
}

/** What a receipt says about one routed call; the writer adds its id and its place in the chain. */
export interface ReceiptCall {
  readonly subject: string;
  readonly taskId: string | null;
  readonly upstream: string;
  readonly tool: string;
  readonly observedAt: string;
  readonly cacheAgeMs: number;
  readonly inputSha256: string;
  readonly resultSha256: string;
  readonly runtimeState: RuntimeState;
}

/** The receipt `id` for `call`, linked after the caller's receipt whose hash is `prevHash`. */
export function linkReceipt(id: string, call: ReceiptCall, prevHash: string): ReceiptBody {
  return {
    receipt_id: id,
    subject: call.subject,
    task_id: call.taskId,
    upstream: call.upstream,
    tool: call.tool,
    observed_at: call.observedAt,
    cache_age_ms: call.cacheAgeMs,
    input_sha256: call.inputSha256,
    result_sha256: call.resultSha256,
    runtime_state: call.runtimeState,
    prev_hash: prevHash,
  };
}

export function receiptHash(body: ReceiptBody): string {
  return sha256Hex(canonicalJson(body));
}

/**
 * Freshness markers an upstream may put in its result (seed 003: "source recency from provider
 * time, block, slot"). Copied into the receipt verbatim; `observed_at` is only when the gateway
 * first saw the answer and proves nothing about the upstream's own data.
 */
const FRESHNESS_KEYS = ['as_of', 'data_as_of', 'source_time', 'updated_at', 'fetched_at', 'snapshot_at', 'block_number', 'block', 'slot', 'freshness', 'stale', 'source_recency'];

export function upstreamFreshness(structured: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!structured) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of FRESHNESS_KEYS) {
    const value = structured[key];
    if (value !== undefined && (typeof value !== 'object' || value === null || JSON.stringify(value).length <= 512)) out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}
