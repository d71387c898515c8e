import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * Knowledge-only settings, parsed from an env record (the process-wide `loadConfig` stays the
 * only reader of `process.env`; the caller hands us the record).
 */
export interface KnowledgeConfig {
  /** HMAC key for paging cursors. Unset: a random per-process key (cursors do not survive a restart or cross replicas). */
  readonly cursorSecret: Uint8Array;
  /** A page is cut (`truncated: true`) before its JSON exceeds this; the 256 KiB transport cap is the backstop. */
  readonly pageBudgetBytes: number;
  /** Default and maximum characters in one `fetch` window. */
  readonly fetchWindowChars: number;
  readonly downstreamTimeoutMs: number;
  /** Largest upload accepted by the HTTP ingestion route. */
  readonly maxUploadBytes: number;
  /** A row still `indexing` this long after its claim is failed by the sweeper (its indexer died). */
  readonly indexingTimeoutSeconds: number;
  readonly indexingSweepIntervalMs: number;
}

const Env = z.object({
  KNOWLEDGE_CURSOR_SECRET: z.string().min(32, 'KNOWLEDGE_CURSOR_SECRET must be at least 32 characters').optional(),
  KNOWLEDGE_PAGE_BUDGET_BYTES: z.coerce.number().int().min(4096).max(256 * 1024).default(192 * 1024),
  KNOWLEDGE_FETCH_WINDOW_CHARS: z.coerce.number().int().min(1000).max(200_000).default(50_000),
  KNOWLEDGE_DOWNSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  KNOWLEDGE_MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  KNOWLEDGE_INDEXING_TIMEOUT_SECONDS: z.coerce.number().int().min(60).default(900),
  KNOWLEDGE_INDEXING_SWEEP_SECONDS: z.coerce.number().int().min(1).default(60),
});

export function loadKnowledgeConfig(env: Record<string, string | undefined> = process.env): KnowledgeConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid knowledge configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    cursorSecret: e.KNOWLEDGE_CURSOR_SECRET ? Buffer.from(e.KNOWLEDGE_CURSOR_SECRET, 'utf8') : randomBytes(32),
    pageBudgetBytes: e.KNOWLEDGE_PAGE_BUDGET_BYTES,
    fetchWindowChars: e.KNOWLEDGE_FETCH_WINDOW_CHARS,
    downstreamTimeoutMs: e.KNOWLEDGE_DOWNSTREAM_TIMEOUT_MS,
    maxUploadBytes: e.KNOWLEDGE_MAX_UPLOAD_BYTES,
    indexingTimeoutSeconds: e.KNOWLEDGE_INDEXING_TIMEOUT_SECONDS,
    indexingSweepIntervalMs: e.KNOWLEDGE_INDEXING_SWEEP_SECONDS * 1000,
  });
}
