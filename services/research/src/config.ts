import { z } from 'zod';

/**
 * The research server's own settings. Like `shared/config.ts`, it parses an env record once at
 * boot and returns a frozen object; nothing else in this service reads `process.env`.
 */

const seconds = z.coerce.number().int().min(0);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ResearchEnvSchema = z.object({
  DEFILLAMA_YIELDS_URL: z.string().url().default('https://yields.llama.fi'),
  DEFILLAMA_STABLECOINS_URL: z.string().url().default('https://stablecoins.llama.fi'),
  DEFILLAMA_API_URL: z.string().url().default('https://api.llama.fi'),
  CACHE_TTL_YIELDS_SECONDS: seconds.default(600),
  CACHE_TTL_STABLECOINS_SECONDS: seconds.default(600),
  CACHE_TTL_PROTOCOLS_SECONDS: seconds.default(6 * 3600),
  YH_STALE_WARN_SECONDS: seconds.default(1800),
  YH_STALE_DEGRADE_SECONDS: seconds.default(7200),
  /** A stale cache hit is revalidated on a request at most this often, so a stale upstream is not hammered. */
  YH_REVALIDATE_MIN_INTERVAL_SECONDS: seconds.default(60),
  /** Kill switch: no upstream fetch at all; only persisted (fetched earlier or imported) snapshots are served. */
  YH_UPSTREAM_DISABLED: bool.default(false),
  DEFILLAMA_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
});

export interface ResearchConfig {
  readonly yieldsUrl: string;
  readonly stablecoinsUrl: string;
  readonly apiUrl: string;
  readonly cacheTtlSeconds: { readonly yields: number; readonly pegs: number; readonly protocols: number };
  readonly staleWarnSeconds: number;
  readonly staleDegradeSeconds: number;
  readonly revalidateMinIntervalSeconds: number;
  readonly upstreamDisabled: boolean;
  readonly upstreamTimeoutMs: number;
}

export class ResearchConfigError extends Error {
  override name = 'ResearchConfigError';
}

const strip = (url: string) => url.replace(/\/+$/, '');

export function loadResearchConfig(env: Record<string, string | undefined> = process.env): ResearchConfig {
  const parsed = ResearchEnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    throw new ResearchConfigError(`Invalid research configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  if (e.YH_STALE_DEGRADE_SECONDS < e.YH_STALE_WARN_SECONDS) {
    throw new ResearchConfigError('Invalid research configuration: YH_STALE_DEGRADE_SECONDS must be ≥ YH_STALE_WARN_SECONDS');
  }
  return Object.freeze({
    yieldsUrl: strip(e.DEFILLAMA_YIELDS_URL),
    stablecoinsUrl: strip(e.DEFILLAMA_STABLECOINS_URL),
    apiUrl: strip(e.DEFILLAMA_API_URL),
    cacheTtlSeconds: Object.freeze({ yields: e.CACHE_TTL_YIELDS_SECONDS, pegs: e.CACHE_TTL_STABLECOINS_SECONDS, protocols: e.CACHE_TTL_PROTOCOLS_SECONDS }),
    staleWarnSeconds: e.YH_STALE_WARN_SECONDS,
    staleDegradeSeconds: e.YH_STALE_DEGRADE_SECONDS,
    revalidateMinIntervalSeconds: e.YH_REVALIDATE_MIN_INTERVAL_SECONDS,
    upstreamDisabled: e.YH_UPSTREAM_DISABLED,
    upstreamTimeoutMs: e.DEFILLAMA_TIMEOUT_MS,
  });
}
