import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A bounded in-memory cache for read-only results. Identical calls in flight at the same time
 * share one upstream call (so a burst of the same question costs the upstream once). Entries
 * remember when the gateway first observed them, so every reuse states its true age.
 */
export interface CachedResult {
  readonly result: CallToolResult;
  readonly observedAtMs: number;
  readonly meta: Record<string, unknown>;
}

export class ResultCache {
  private readonly entries = new Map<string, { value: CachedResult; expiresAtMs: number }>();
  private readonly inflight = new Map<string, Promise<CachedResult>>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedResult | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAtMs <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /**
   * Returns a fresh entry, or joins an identical call in flight, or runs `load`. `cacheable`
   * decides afterwards whether the answer may be kept (failures and withheld results are not).
   */
  async getOrLoad(key: string, ttlSeconds: number, load: () => Promise<CachedResult>, cacheable: (v: CachedResult) => boolean): Promise<{ value: CachedResult; shared: boolean }> {
    const hit = this.get(key);
    if (hit) return { value: hit, shared: true };
    const running = this.inflight.get(key);
    if (running) return { value: await running, shared: true };
    const p = load().then((value) => {
      if (cacheable(value) && ttlSeconds > 0) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value, expiresAtMs: this.now() + ttlSeconds * 1000 });
      }
      return value;
    });
    this.inflight.set(key, p);
    try {
      return { value: await p, shared: false };
    } finally {
      this.inflight.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
