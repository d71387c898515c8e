import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Config, ServiceName } from '../../../shared/config.ts';
import type { AccessPolicy } from './domain/access-policy.ts';
import type { UpstreamInput } from './store/upstream-store.ts';

/**
 * The gateway's own settings: environment variables (parsed here, from an env record passed in)
 * and the registry seed file `gateway.config.json` (docs/gateway.md documents both).
 */
const DEFAULT_CONFIG_PATH = fileURLToPath(new URL('../gateway.config.json', import.meta.url));

const positiveInt = z.coerce.number().int().positive();

const EnvSchema = z.object({
  GATEWAY_CONFIG: z.string().min(1).optional(),
  /** User ids (auth's `sub`) allowed to manage the registry from the web app. Comma-separated. */
  GATEWAY_ADMIN_SUBJECTS: z.string().optional(),
  GATEWAY_REFRESH_INTERVAL_MS: positiveInt.default(300_000),
  GATEWAY_CATALOG_POLL_MS: positiveInt.default(2_000),
  GATEWAY_FIREWALL_MODE: z.enum(['enforce', 'shadow']).optional(),
  GATEWAY_APPROVAL_TTL_SECONDS: positiveInt.default(900),
  GATEWAY_CACHE_MAX_ENTRIES: positiveInt.default(5_000),
  GATEWAY_RECEIPT_FLUSH: z.enum(['after_answer', 'before_answer']).default('after_answer'),
});

const AuthSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('obo') }),
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({ kind: z.literal('bearer'), env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'env must name an environment variable') }),
]);

export const PREFIX_PATTERN = /^[a-z][a-z0-9]{0,11}$/;
const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const UpstreamFileSchema = z
  .strictObject({
    name: z.string().regex(NAME_PATTERN),
    /** One of our own services: its URL comes from the deployment's config (ports, public URLs). */
    service: z.enum(['research', 'knowledge', 'payments-test', 'payments-live']).optional(),
    url: z.string().url().optional(),
    prefix: z.string().regex(PREFIX_PATTERN, 'prefix: lower-case letters and digits, at most 12'),
    categories: z.array(z.string().min(1).max(40)).min(1).default(['general']),
    tier: z.string().min(1).max(40).default('standard'),
    costMicroUsdc: z.number().int().min(0).default(5000),
    timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    maxConcurrent: z.number().int().min(1).max(1024).default(32),
    cacheTtls: z.record(z.string(), z.number().int().min(0).max(86_400)).default({}),
    auth: AuthSchema.optional(),
    autoApprove: z.array(z.string().min(1)).default([]),
  })
  .refine((u) => Boolean(u.service) !== Boolean(u.url), { message: 'give exactly one of service or url' });

const PolicySchema = z.strictObject({ categories: z.array(z.string()).min(1), tiers: z.array(z.string()).min(1) });

const FileSchema = z.strictObject({
  $schema: z.string().optional(),
  upstreams: z.array(UpstreamFileSchema).default([]),
  access: z.strictObject({ default: PolicySchema }).default({ default: { categories: ['*'], tiers: ['*'] } }),
  firewall: z.strictObject({ mode: z.enum(['enforce', 'shadow']).default('enforce') }).default({ mode: 'enforce' }),
});

export interface GatewayConfig {
  readonly configPath: string;
  readonly seedUpstreams: readonly UpstreamInput[];
  readonly defaultAccess: AccessPolicy;
  readonly adminSubjects: readonly string[];
  readonly refreshIntervalMs: number;
  readonly catalogPollMs: number;
  readonly firewallMode: 'enforce' | 'shadow';
  readonly approvalTtlSeconds: number;
  readonly cacheMaxEntries: number;
  /** When a receipt's INSERT commits relative to the answer (docs/gateway.md, Receipts). */
  readonly receiptFlush: ReceiptFlush;
  /** Static upstream credentials by env-var name, read once here (never from a caller). */
  readonly upstreamSecrets: Readonly<Record<string, string>>;
}

export type ReceiptFlush = z.infer<typeof EnvSchema>['GATEWAY_RECEIPT_FLUSH'];

export class GatewayConfigError extends Error {
  override name = 'GatewayConfigError';
}

export function upstreamInputFromFile(entry: z.infer<typeof UpstreamFileSchema>, config: Config, source: UpstreamInput['source']): UpstreamInput {
  const url = entry.service ? config.services[entry.service as ServiceName].resource : entry.url!;
  return {
    name: entry.name,
    url,
    prefix: entry.prefix,
    categories: entry.categories,
    tier: entry.tier,
    costMicroUsdc: entry.costMicroUsdc,
    timeoutMs: entry.timeoutMs,
    maxConcurrent: entry.maxConcurrent,
    cacheTtls: entry.cacheTtls,
    // Our own servers get on-behalf-of tokens; anything else gets nothing unless configured.
    auth: entry.auth ?? (entry.service ? { kind: 'obo' } : { kind: 'none' }),
    autoApprove: entry.autoApprove,
    source,
  };
}

export function loadGatewayConfig(config: Config, env: Record<string, string | undefined> = process.env): GatewayConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new GatewayConfigError(`Invalid gateway configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const e = parsed.data;
  const configPath = e.GATEWAY_CONFIG ?? DEFAULT_CONFIG_PATH;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (err) {
    throw new GatewayConfigError(`Cannot read gateway config ${configPath}: ${(err as Error).message}`);
  }
  const file = FileSchema.safeParse(raw);
  if (!file.success) throw new GatewayConfigError(`Invalid ${configPath}: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const seedUpstreams = file.data.upstreams.map((u) => upstreamInputFromFile(u, config, 'config'));
  const upstreamSecrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (key.startsWith('GATEWAY_UPSTREAM_') && value) upstreamSecrets[key] = value;
  return Object.freeze({
    configPath,
    seedUpstreams,
    defaultAccess: file.data.access.default,
    adminSubjects: Object.freeze((e.GATEWAY_ADMIN_SUBJECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
    refreshIntervalMs: e.GATEWAY_REFRESH_INTERVAL_MS,
    catalogPollMs: e.GATEWAY_CATALOG_POLL_MS,
    firewallMode: e.GATEWAY_FIREWALL_MODE ?? file.data.firewall.mode,
    approvalTtlSeconds: e.GATEWAY_APPROVAL_TTL_SECONDS,
    cacheMaxEntries: e.GATEWAY_CACHE_MAX_ENTRIES,
    receiptFlush: e.GATEWAY_RECEIPT_FLUSH,
    upstreamSecrets: Object.freeze(upstreamSecrets),
  });
}
