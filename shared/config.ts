import { z } from 'zod';

/**
 * The only module that reads `process.env`. `loadConfig` validates once at boot and returns a
 * frozen object that every factory receives explicitly (`createAuthApp({ config, db, logger })`),
 * so a misconfiguration fails at start-up, not on the first request.
 */

export const SERVICE_NAMES = ['auth', 'research', 'knowledge', 'payments-test', 'payments-live', 'gateway'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Chain ids from seed 001: 153 is the test chain, 151 the live chain. */
export const TEST_CHAIN_ID = '153';
export const LIVE_CHAIN_ID = '151';

const DEFAULT_PORTS: Record<ServiceName, number> = {
  auth: 8080,
  research: 8081,
  knowledge: 8082,
  'payments-test': 8083,
  'payments-live': 8084,
  gateway: 8085,
};

/** Each service's suffix in `PORT_*` and `PUBLIC_URL_*`. */
export const ENV_SUFFIX: Readonly<Record<ServiceName, string>> = {
  auth: 'AUTH',
  research: 'RESEARCH',
  knowledge: 'KNOWLEDGE',
  'payments-test': 'PAYMENTS_TEST',
  'payments-live': 'PAYMENTS_LIVE',
  gateway: 'GATEWAY',
};

const port = z.coerce.number().int().min(0).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = z.coerce.number().int().positive();

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.string().url().optional(),
  /** Schema to run in on real Postgres (tests use a fresh one per file). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier')
    .optional(),
  /** Connections per process to PostgreSQL (postgres.js pool). Ignored on PGlite. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Raw-key exchanges are cached at most this long per key and chain (seed 001: at most 60 s). */
  EXCHANGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(60),
  /** Where MCP servers reach auth (exchange, JWKS). Defaults to auth's public URL. */
  AUTH_INTERNAL_URL: z.string().url().optional(),
  AUTH_TIMEOUT_MS: positiveInt.default(3000),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(900),
  CONNECTOR_SESSION_TTL_SECONDS: positiveInt.default(300),
  WEB_SESSION_TTL_SECONDS: positiveInt.default(12 * 3600),
  LOGIN_RATE_LIMIT_PER_ADDRESS: positiveInt.default(30),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: positiveInt.default(10),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(300),
  MAX_BODY_BYTES: positiveInt.default(1024 * 1024),
  /** Seeds a documented demo user on an empty embedded database so `npm start` can be signed in to. */
  SEED_DEMO_USER: bool.optional(),
  /** Extra Host header values the DNS-rebinding check accepts (comma-separated host[:port]). */
  ALLOWED_HOSTS: z.string().optional(),
  /** Extra Origin values the DNS-rebinding check accepts (comma-separated). */
  ALLOWED_ORIGINS: z.string().optional(),
  // OAuth authorization server (docs/oauth.md lists each setting).
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(3600),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: positiveInt.default(30 * 24 * 3600),
  OAUTH_GRANT_MAX_LIFETIME_SECONDS: positiveInt.default(365 * 24 * 3600),
  OAUTH_CODE_TTL_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  OAUTH_CONSENT_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  OAUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
  OAUTH_REGISTER_RATE_LIMIT_PER_ADDRESS: positiveInt.default(120),
  OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS: positiveInt.default(1200),
  OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: positiveInt.default(300),
  OAUTH_TOKEN_RATE_LIMIT_PER_ACCOUNT: positiveInt.default(60),
  /** How long an MCP server trusts a "not revoked" answer for an OAuth access token. */
  OAUTH_REVOCATION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  CIMD_FETCH_TIMEOUT_MS: positiveInt.default(3000),
  CIMD_MAX_BYTES: positiveInt.default(5 * 1024),
  CIMD_CACHE_MAX_SECONDS: z.coerce.number().int().min(0).max(86400).default(3600),
  /** Tests only: lets Client ID Metadata Documents live on loopback (and plain http there). */
  DANGEROUSLY_ALLOW_LOOPBACK_CIMD_HOSTS: bool.optional(),
});

const ServiceEnvSchema = z.object({ port: port.optional(), publicUrl: z.string().url().optional() });

export interface ServiceEndpoint {
  readonly name: ServiceName;
  readonly port: number;
  /** Public origin + path prefix, no trailing slash (e.g. `http://127.0.0.1:8081`). */
  readonly publicUrl: string;
  /** The RFC 8707 resource URI of an MCP server: its public `/mcp` URL. Auth's is its issuer. */
  readonly resource: string;
}

export interface Config {
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly databaseSchema: string | undefined;
  /** postgres.js pool size per process (DATABASE_POOL_SIZE). */
  readonly databasePoolSize: number;
  readonly logLevel: string;
  readonly exchangeCacheTtlSeconds: number;
  readonly authInternalUrl: string;
  readonly authTimeoutMs: number;
  readonly accessTokenTtlSeconds: number;
  readonly connectorSessionTtlSeconds: number;
  readonly webSessionTtlSeconds: number;
  readonly loginRateLimit: { readonly perAddress: number; readonly perAccount: number; readonly windowSeconds: number };
  readonly maxBodyBytes: number;
  readonly seedDemoUser: boolean;
  readonly extraAllowedHosts: readonly string[];
  readonly extraAllowedOrigins: readonly string[];
  readonly oauth: OAuthConfig;
  /** The issuer: auth's public URL, byte-identical everywhere it appears (no trailing slash). */
  readonly issuer: string;
  readonly services: Readonly<Record<ServiceName, ServiceEndpoint>>;
}

export interface OAuthConfig {
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly grantMaxLifetimeSeconds: number;
  readonly codeTtlSeconds: number;
  readonly consentTtlSeconds: number;
  readonly rateLimit: {
    readonly windowSeconds: number;
    readonly registerPerAddress: number;
    readonly tokenPerAddress: number;
    readonly tokenPerClient: number;
    readonly tokenPerAccount: number;
  };
  readonly revocationCacheSeconds: number;
  readonly cimd: {
    readonly fetchTimeoutMs: number;
    readonly maxBytes: number;
    readonly cacheMaxSeconds: number;
    readonly dangerouslyAllowLoopbackHosts: boolean;
  };
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `FOO=` (as in .env.example) means "use the default", not "the empty string". */
export function withoutEmptyValues(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
}

export function loadConfig(rawEnv: Record<string, string | undefined> = process.env): Config {
  const env = withoutEmptyValues(rawEnv);
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const services = {} as Record<ServiceName, ServiceEndpoint>;
  for (const name of SERVICE_NAMES) {
    const portVar = `PORT_${ENV_SUFFIX[name]}`;
    const urlVar = `PUBLIC_URL_${ENV_SUFFIX[name]}`;
    const own = ServiceEnvSchema.safeParse({ port: env[portVar] || undefined, publicUrl: env[urlVar] || undefined });
    if (!own.success) {
      throw new ConfigError(`Invalid configuration: ${own.error.issues.map((i) => `${i.path[0] === 'port' ? portVar : urlVar}: ${i.message}`).join('; ')}`);
    }
    const p = own.data.port ?? DEFAULT_PORTS[name];
    const publicUrl = stripTrailingSlash(own.data.publicUrl ?? `http://${e.HOST}:${p}`);
    services[name] = Object.freeze({
      name,
      port: p,
      publicUrl,
      resource: name === 'auth' ? publicUrl : `${publicUrl}/mcp`,
    });
  }
  const issuer = services.auth.publicUrl;
  return Object.freeze({
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    exchangeCacheTtlSeconds: e.EXCHANGE_CACHE_TTL_SECONDS,
    authInternalUrl: stripTrailingSlash(e.AUTH_INTERNAL_URL ?? issuer),
    authTimeoutMs: e.AUTH_TIMEOUT_MS,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    connectorSessionTtlSeconds: e.CONNECTOR_SESSION_TTL_SECONDS,
    webSessionTtlSeconds: e.WEB_SESSION_TTL_SECONDS,
    loginRateLimit: Object.freeze({
      perAddress: e.LOGIN_RATE_LIMIT_PER_ADDRESS,
      perAccount: e.LOGIN_RATE_LIMIT_PER_ACCOUNT,
      windowSeconds: e.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
    }),
    maxBodyBytes: e.MAX_BODY_BYTES,
    seedDemoUser: e.SEED_DEMO_USER ?? !e.DATABASE_URL,
    extraAllowedHosts: Object.freeze(list(e.ALLOWED_HOSTS)),
    extraAllowedOrigins: Object.freeze(list(e.ALLOWED_ORIGINS)),
    oauth: Object.freeze({
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      grantMaxLifetimeSeconds: e.OAUTH_GRANT_MAX_LIFETIME_SECONDS,
      codeTtlSeconds: e.OAUTH_CODE_TTL_SECONDS,
      consentTtlSeconds: e.OAUTH_CONSENT_TTL_SECONDS,
      rateLimit: Object.freeze({
        windowSeconds: e.OAUTH_RATE_LIMIT_WINDOW_SECONDS,
        registerPerAddress: e.OAUTH_REGISTER_RATE_LIMIT_PER_ADDRESS,
        tokenPerAddress: e.OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS,
        tokenPerClient: e.OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT,
        tokenPerAccount: e.OAUTH_TOKEN_RATE_LIMIT_PER_ACCOUNT,
      }),
      revocationCacheSeconds: e.OAUTH_REVOCATION_CACHE_SECONDS,
      cimd: Object.freeze({
        fetchTimeoutMs: e.CIMD_FETCH_TIMEOUT_MS,
        maxBytes: e.CIMD_MAX_BYTES,
        cacheMaxSeconds: e.CIMD_CACHE_MAX_SECONDS,
        dangerouslyAllowLoopbackHosts: e.DANGEROUSLY_ALLOW_LOOPBACK_CIMD_HOSTS ?? false,
      }),
    }),
    issuer,
    services: Object.freeze(services),
  });
}
