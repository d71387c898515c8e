import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorToolResult, jsonToolResult } from '../../../../shared/mcp/tool-result.ts';
import type { ResearchErrorCode } from '../errors.ts';

export const SCHEMA_VERSION = '1.0.0';

/** Non-custodial by construction: no tool writes anything but caches (issue 4, "Non-custodial"). */
export const DISCLAIMER =
  'Research estimates only, not financial advice or a mandate to act. This server is non-custodial: it never holds keys, never builds, signs or broadcasts transactions, and has no write path — no tool changes anything but its caches. Data is snapshot-based (DefiLlama + curated priors); exit liquidity, incident history and live execution risk are only partially covered.';

export interface EnvelopeMeta {
  readonly degraded: boolean;
  readonly warnings: readonly string[];
  readonly sources: readonly string[];
  readonly lastRefreshedAt: string | null;
  readonly dataAgeSeconds: number | null;
  readonly sourcesFreshness: readonly unknown[];
  readonly [extra: string]: unknown;
}

export function successEnvelope(requestId: string, data: Record<string, unknown>, meta: EnvelopeMeta, now: Date): CallToolResult {
  return jsonToolResult({
    ok: true,
    schemaVersion: SCHEMA_VERSION,
    requestId,
    data,
    meta: { asOf: now.toISOString(), ...meta, warnings: [...new Set(meta.warnings)], disclaimer: DISCLAIMER },
  });
}

export function failureEnvelope(requestId: string, code: ResearchErrorCode, message: string, now: Date): CallToolResult {
  return errorToolResult({ ok: false, schemaVersion: SCHEMA_VERSION, requestId, error: { code, message }, meta: { asOf: now.toISOString(), disclaimer: DISCLAIMER } });
}

/** Success output schema shared by every tool: loose objects, so additive fields never break clients. */
export function envelopeOutputSchema(data: z.ZodType) {
  return z.looseObject({
    ok: z.literal(true),
    schemaVersion: z.string(),
    requestId: z.string(),
    data,
    meta: z.looseObject({
      asOf: z.string(),
      degraded: z.boolean(),
      warnings: z.array(z.string()),
      sources: z.array(z.string()),
      lastRefreshedAt: z.string().nullable(),
      dataAgeSeconds: z.number().nullable(),
      sourcesFreshness: z.array(z.looseObject({ source: z.string(), lastSuccessAt: z.string().nullable() })),
      disclaimer: z.string(),
    }),
  });
}
