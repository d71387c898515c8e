import { parseCommandArgs } from '../../../shared/cli-args.ts';
import { CliUsageError, type CliCommand, type CliDeps } from '../../../shared/cli.ts';
import type { DbHandle } from '../../../shared/db/client.ts';
import { PREFIX_PATTERN, UpstreamFileSchema, upstreamInputFromFile } from './config.ts';
import { toOpenAiTools } from './domain/openai-export.ts';
import { authorizeTool } from './domain/access-policy.ts';
import { setAccessPolicy } from './store/access-policy-store.ts';
import { approvePendingDefinition, listTools } from './store/tool-store.ts';
import { listUpstreams, removeUpstream, requestRefresh, upsertUpstream } from './store/upstream-store.ts';

/**
 * `npx gatehouse registry …`: manage the gateway registry in the database. Running gateways
 * notice every change (NOTIFY, or their fingerprint poll) and apply it without a restart.
 */
type Flags = Map<string, string[]>;

/** Every flag may repeat (`--category a --category b`); the shared strict parser names a bad one. */
function parseFlags(argv: readonly string[], known: readonly string[]): { flags: Flags; positional: string[] } {
  const { values, positionals } = parseCommandArgs(argv, Object.fromEntries(known.map((name) => [name, { type: 'string', multiple: true } as const])));
  return { flags: new Map(Object.entries(values) as [string, string[]][]), positional: positionals };
}

const one = (flags: Flags, name: string): string | undefined => flags.get(name)?.at(-1);
const int = (flags: Flags, name: string): number | undefined => {
  const v = one(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new CliUsageError(`--${name} must be a whole number`);
  return Number(v);
};

async function withDb<T>(deps: CliDeps, fn: (db: DbHandle) => Promise<T>): Promise<T> {
  const db = await deps.openDb();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const ADD_USAGE =
  'registry add --name N --url U --prefix P [--category C]… [--tier T] [--cost-micro-usdc N] [--timeout-ms N] [--cache-ttl TOOL=SECONDS]… [--bearer-env VAR] [--auto-approve GLOB]…';

export const commands: CliCommand[] = [
  {
    name: 'registry add',
    usage: ADD_USAGE,
    summary: 'Register (or replace) an upstream MCP server; a running gateway picks it up without a restart.',
    async run(argv, deps) {
      const { flags } = parseFlags(argv, ['name', 'url', 'prefix', 'category', 'tier', 'cost-micro-usdc', 'timeout-ms', 'cache-ttl', 'bearer-env', 'auto-approve']);
      const name = one(flags, 'name');
      const url = one(flags, 'url');
      const prefix = one(flags, 'prefix');
      if (!name || !url || !prefix) throw new CliUsageError(`--name, --url and --prefix are required\nusage: ${ADD_USAGE}`);
      if (!PREFIX_PATTERN.test(prefix)) throw new CliUsageError('--prefix: lower-case letters and digits, starting with a letter, at most 12');
      const cacheTtls: Record<string, number> = {};
      for (const entry of flags.get('cache-ttl') ?? []) {
        const m = /^([^=]+)=(\d+)$/.exec(entry);
        if (!m) throw new CliUsageError('--cache-ttl takes TOOL=SECONDS (TOOL may be *)');
        cacheTtls[m[1]!] = Number(m[2]);
      }
      const bearerEnv = one(flags, 'bearer-env');
      const parsed = UpstreamFileSchema.safeParse({
        name,
        url,
        prefix,
        ...(flags.get('category') ? { categories: flags.get('category') } : {}),
        ...(one(flags, 'tier') ? { tier: one(flags, 'tier') } : {}),
        ...(int(flags, 'cost-micro-usdc') !== undefined ? { costMicroUsdc: int(flags, 'cost-micro-usdc') } : {}),
        ...(int(flags, 'timeout-ms') !== undefined ? { timeoutMs: int(flags, 'timeout-ms') } : {}),
        cacheTtls,
        ...(bearerEnv ? { auth: { kind: 'bearer', env: bearerEnv } } : {}),
        autoApprove: flags.get('auto-approve') ?? [],
      });
      if (!parsed.success) throw new CliUsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'upstream'}: ${i.message}`).join('; '));
      await withDb(deps, (db) => upsertUpstream(db, upstreamInputFromFile(parsed.data, deps.config, 'cli')));
      deps.stdout.write(`registered ${name} (${prefix}_*) → ${url}\n`);
      return 0;
    },
  },
  {
    name: 'registry list',
    usage: 'registry list [--json]',
    summary: 'List registered upstreams with their tools and quarantined definitions.',
    async run(argv, deps) {
      const asJson = argv.includes('--json');
      const [upstreams, tools] = await withDb(deps, async (db) => Promise.all([listUpstreams(db), listTools(db)]));
      if (asJson) {
        deps.stdout.write(`${JSON.stringify({ upstreams, tools: tools.map(({ definition: _d, pendingDefinition: _p, ...t }) => t) }, null, 2)}\n`);
        return 0;
      }
      for (const u of upstreams) {
        const own = tools.filter((t) => t.upstream === u.name);
        const q = own.filter((t) => t.status === 'quarantined');
        deps.stdout.write(
          `${u.name}  ${u.prefix}_*  ${u.url}\n  categories=${u.categories.join(',')} tier=${u.tier} cost=${u.costMicroUsdc}µUSDC timeout=${u.timeoutMs}ms auth=${u.auth.kind} tools=${own.filter((t) => t.status === 'active').length}` +
            `${q.length ? ` QUARANTINED=${q.map((t) => t.advertisedName).join(',')}` : ''}${u.lastError ? ` last_error="${u.lastError}"` : ''}${u.discoveredAt ? '' : ' (not discovered yet)'}\n`,
        );
      }
      if (!upstreams.length) deps.stdout.write('no upstreams registered\n');
      return 0;
    },
  },
  {
    name: 'registry remove',
    usage: 'registry remove NAME',
    summary: 'Remove an upstream and its tools.',
    async run(argv, deps) {
      const name = argv[0];
      if (!name) throw new CliUsageError('usage: registry remove NAME');
      const removed = await withDb(deps, (db) => removeUpstream(db, name));
      deps.stdout.write(removed ? `removed ${name}\n` : `no upstream named ${name}\n`);
      return removed ? 0 : 1;
    },
  },
  {
    name: 'registry refresh',
    usage: 'registry refresh [NAME]',
    summary: 'Ask running gateways to re-discover one upstream (or all) now.',
    async run(argv, deps) {
      const n = await withDb(deps, (db) => requestRefresh(db, argv[0]));
      deps.stdout.write(`refresh requested for ${n} upstream(s); external ones refresh within seconds, our own on the next caller (they need an on-behalf-of token)\n`);
      return n > 0 ? 0 : 1;
    },
  },
  {
    name: 'registry approve-tool',
    usage: 'registry approve-tool UPSTREAM TOOL PENDING_SHA256',
    summary: 'Approve a quarantined tool definition (the hash shown by `registry list --json`).',
    async run(argv, deps) {
      const [upstream, tool, sha] = argv;
      if (!upstream || !tool || !sha) throw new CliUsageError('usage: registry approve-tool UPSTREAM TOOL PENDING_SHA256');
      const ok = await withDb(deps, async (db) => {
        const approved = await approvePendingDefinition(db, upstream, tool, sha);
        if (approved) await requestRefresh(db, upstream);
        return approved;
      });
      deps.stdout.write(ok ? `approved ${upstream}/${tool}\n` : 'nothing approved: not quarantined, or the pending hash differs\n');
      return ok ? 0 : 1;
    },
  },
  {
    name: 'registry access',
    usage: 'registry access --subject USER_ID --category C… --tier T…',
    summary: "Set what one caller may see and call (categories and tiers; '*' for all).",
    async run(argv, deps) {
      const { flags } = parseFlags(argv, ['subject', 'category', 'tier']);
      const subject = one(flags, 'subject');
      if (!subject || !flags.get('category') || !flags.get('tier')) throw new CliUsageError('usage: registry access --subject USER_ID --category C… --tier T…');
      await withDb(deps, (db) => setAccessPolicy(db, subject, { categories: flags.get('category')!, tiers: flags.get('tier')! }));
      deps.stdout.write(`access for ${subject}: categories=${flags.get('category')!.join(',')} tiers=${flags.get('tier')!.join(',')}\n`);
      return 0;
    },
  },
  {
    name: 'registry export',
    usage: 'registry export [--format openai|mcp] [--category C]… [--tier T]…',
    summary: 'Print the registry\'s active tools in OpenAI function-calling format (or MCP), filtered like a caller policy.',
    async run(argv, deps) {
      const { flags } = parseFlags(argv, ['format', 'category', 'tier']);
      const format = one(flags, 'format') ?? 'openai';
      if (format !== 'openai' && format !== 'mcp') throw new CliUsageError('--format openai|mcp');
      const policy = { categories: flags.get('category') ?? ['*'], tiers: flags.get('tier') ?? ['*'] };
      const [upstreams, tools] = await withDb(deps, async (db) => Promise.all([listUpstreams(db), listTools(db)]));
      const byName = new Map(upstreams.map((u) => [u.name, u]));
      const visible = tools
        .filter((t) => t.status === 'active' && byName.has(t.upstream) && authorizeTool(policy, { upstreamCategories: byName.get(t.upstream)!.categories, tier: byName.get(t.upstream)!.tier }))
        .map((t) => ({ name: t.advertisedName, description: String((t.definition as { description?: string }).description ?? ''), inputSchema: (t.definition as { inputSchema: Record<string, unknown> }).inputSchema }));
      deps.stdout.write(`${JSON.stringify({ tools: format === 'openai' ? toOpenAiTools(visible) : visible }, null, 2)}\n`);
      return 0;
    },
  },
];
