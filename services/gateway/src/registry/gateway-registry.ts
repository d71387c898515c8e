import type { Session } from '../../../../shared/auth/session.ts';
import type { DbHandle } from '../../../../shared/db/client.ts';
import type { Logger } from '../../../../shared/log.ts';
import { breakerHealth, newBreakerState, recordFailure, recordSuccess, type BreakerState, type UpstreamHealth } from '../domain/circuit-breaker.ts';
import { listTools } from '../store/tool-store.ts';
import { listUpstreams, recordDiscovery, registryFingerprint, REGISTRY_CHANNEL, requestRefresh, type UpstreamRow } from '../store/upstream-store.ts';
import { applyDiscoveredTools } from '../upstream/discover-tools.ts';
import type { OboTokenSource } from '../upstream/obo-token-source.ts';
import { UpstreamConnection } from '../upstream/upstream-connection.ts';
import { buildToolCatalog, type ToolCatalog } from './tool-catalog.ts';

/** How long after a failed discovery the gateway waits before trying that upstream again. */
export const DISCOVERY_RETRY_MS = 30_000;

export interface GatewayRegistryOptions {
  readonly db: DbHandle;
  readonly logger: Logger;
  readonly oboTokens: OboTokenSource;
  readonly upstreamSecrets: Readonly<Record<string, string>>;
  readonly refreshIntervalMs: number;
  readonly catalogPollMs: number;
  readonly now?: () => number;
}

/**
 * The live registry: an in-memory snapshot of the database's upstreams and pinned tools, plus
 * one connection and one circuit breaker per upstream. Nothing about callers lives here, so any
 * number of replicas can serve behind a plain load balancer; they converge through the database
 * (NOTIFY when they can, polling a fingerprint when they cannot).
 *
 * Discovery of our own upstreams needs a credential, and our servers admit only on-behalf-of
 * tokens derived from a person's session; so those are (re)discovered with the token of the
 * caller who first needs them, while external upstreams are refreshed on a timer.
 */
export class GatewayRegistry {
  private snapshot: ToolCatalog = buildToolCatalog([], []);
  private fingerprint = '';
  private reloadsStarted = 0;
  private reloadApplied = 0;
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly breakers = new Map<string, BreakerState>();
  private readonly discovering = new Map<string, Promise<void>>();
  /** When discovery last failed here, per upstream: retries wait `DISCOVERY_RETRY_MS` and never block a caller. */
  private readonly discoveryFailedAtMs = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly now: () => number;

  constructor(private readonly options: GatewayRegistryOptions) {
    this.now = options.now ?? Date.now;
  }

  catalog(): ToolCatalog {
    return this.snapshot;
  }

  health(upstream: string): UpstreamHealth {
    return breakerHealth(this.breaker(upstream), this.now());
  }

  breaker(upstream: string): BreakerState {
    let b = this.breakers.get(upstream);
    if (!b) this.breakers.set(upstream, (b = newBreakerState()));
    return b;
  }

  recordOutcome(upstream: string, ok: boolean): void {
    if (ok) recordSuccess(this.breaker(upstream));
    else recordFailure(this.breaker(upstream), this.now());
  }

  connection(upstream: UpstreamRow): UpstreamConnection {
    const existing = this.connections.get(upstream.name);
    if (existing && existing.options.url === upstream.url && existing.options.maxConcurrent === upstream.maxConcurrent) return existing;
    void existing?.close();
    const created = new UpstreamConnection({
      name: upstream.name,
      url: upstream.url,
      maxConcurrent: upstream.maxConcurrent,
      onToolListChanged: () => {
        this.options.logger.info({ upstream: upstream.name }, 'upstream announced tools/list_changed');
        void requestRefresh(this.options.db, upstream.name).then(() => this.refreshDue());
      },
    });
    this.connections.set(upstream.name, created);
    return created;
  }

  /** The credential the gateway presents to an upstream — never the caller's own bearer. */
  async credentialFor(upstream: UpstreamRow, session: Session | undefined): Promise<string | undefined> {
    switch (upstream.auth.kind) {
      case 'none':
        return undefined;
      case 'bearer': {
        const secret = this.options.upstreamSecrets[upstream.auth.env];
        if (!secret) throw new Error(`upstream ${upstream.name}: environment variable ${upstream.auth.env} is not set`);
        return secret;
      }
      case 'obo':
        if (!session) throw new Error(`upstream ${upstream.name} needs a caller to mint an on-behalf-of token`);
        return this.options.oboTokens.tokenFor({ subject: session.subject, sessionToken: session.sessionToken, audience: upstream.url });
    }
  }

  async reload(): Promise<void> {
    // Reloads overlap (discoveries, NOTIFY, the poll) and on a pooled Postgres they can finish out
    // of order; a reload that started earlier must never replace a newer snapshot, or a tool just
    // removed upstream would come back until the next reload.
    const generation = ++this.reloadsStarted;
    const [upstreams, tools, fingerprint] = await Promise.all([listUpstreams(this.options.db), listTools(this.options.db), registryFingerprint(this.options.db)]);
    if (generation < this.reloadApplied) return;
    this.reloadApplied = generation;
    this.snapshot = buildToolCatalog(upstreams, tools);
    this.fingerprint = fingerprint;
    for (const name of [...this.connections.keys()]) {
      if (!this.snapshot.upstreams.has(name)) {
        void this.connections.get(name)?.close();
        this.connections.delete(name);
      }
    }
  }

  private needsDiscovery(u: UpstreamRow): boolean {
    const failedAtMs = this.discoveryFailedAtMs.get(u.name);
    // Back off after a failure (a server that is down is not re-dialled on every call), unless
    // someone asked for a refresh since.
    if (failedAtMs !== undefined && this.now() - failedAtMs < DISCOVERY_RETRY_MS && !(u.refreshRequestedAt && u.refreshRequestedAt.getTime() > failedAtMs)) return false;
    if (!u.discoveredAt) return true;
    if (u.refreshRequestedAt) return true;
    return this.now() - u.discoveredAt.getTime() > this.options.refreshIntervalMs;
  }

  /** Discovers one upstream (one flight at a time per upstream) and reloads the snapshot. */
  async discover(upstream: UpstreamRow, session: Session | undefined): Promise<void> {
    const running = this.discovering.get(upstream.name);
    if (running) return running;
    const p = (async () => {
      const requestedBefore = new Date();
      try {
        const credential = await this.credentialFor(upstream, session);
        const tools = await this.connection(upstream).listTools(credential, Math.min(upstream.timeoutMs, 30_000));
        const outcome = await applyDiscoveredTools(this.options.db, upstream, tools);
        if (outcome.quarantined.length) this.options.logger.warn({ upstream: upstream.name, tools: outcome.quarantined }, 'tool definitions changed: quarantined until an admin approves');
        await recordDiscovery(this.options.db, upstream.name, { error: null, requestedBefore });
        this.discoveryFailedAtMs.delete(upstream.name);
      } catch (err) {
        this.discoveryFailedAtMs.set(upstream.name, this.now());
        this.options.logger.warn({ upstream: upstream.name, err: (err as Error).message }, 'upstream discovery failed');
        await recordDiscovery(this.options.db, upstream.name, { error: (err as Error).message.slice(0, 500), requestedBefore }).catch((recordErr: Error) => this.options.logger.error({ upstream: upstream.name, err: recordErr.message }, 'could not record the discovery failure'));
      }
      await this.reload();
    })().finally(() => this.discovering.delete(upstream.name));
    this.discovering.set(upstream.name, p);
    return p;
  }

  /**
   * Called on a caller's request: upstreams never discovered are discovered now with this
   * caller's credential (the caller waits, bounded by the upstream's timeout, but only for the
   * first attempt in this process); stale ones, and retries after a failure, run in the
   * background, so a server that is down costs callers nothing after the first try.
   */
  async ensureDiscovered(session: Session): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const u of this.snapshot.upstreams.values()) {
      if (!this.needsDiscovery(u)) continue;
      const firstAttempt = !u.discoveredAt && !this.discoveryFailedAtMs.has(u.name);
      const p = this.discover(u, session);
      if (firstAttempt) waits.push(p);
    }
    if (waits.length) await Promise.all(waits);
  }

  /** Background pass: reload if the registry changed; refresh due upstreams that need no caller. */
  async refreshDue(): Promise<void> {
    const fingerprint = await registryFingerprint(this.options.db);
    if (fingerprint !== this.fingerprint) await this.reload();
    await Promise.all([...this.snapshot.upstreams.values()].filter((u) => u.auth.kind !== 'obo' && this.needsDiscovery(u)).map((u) => this.discover(u, undefined)));
  }

  async start(): Promise<void> {
    await this.reload();
    await this.refreshDue();
    this.unlisten = await this.options.db.listen(REGISTRY_CHANNEL, () => void this.refreshDue().catch(() => {})).catch(() => undefined);
    this.timer = setInterval(() => void this.refreshDue().catch((err) => this.options.logger.warn({ err }, 'registry refresh failed')), this.options.catalogPollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    await Promise.allSettled([...this.discovering.values()]);
    await Promise.all([...this.connections.values()].map((c) => c.close()));
    this.connections.clear();
  }
}
