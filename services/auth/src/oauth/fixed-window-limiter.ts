/**
 * An in-memory fixed-window counter per key. The token endpoint uses it for the per-account
 * limit, which is known only once the code or refresh token has been looked up, so it cannot be
 * an HTTP middleware. Single-process: each replica counts on its own (docs/oauth.md).
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit; returns the seconds to wait when the key is over its limit, else 0. */
  hit(key: string): number {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startMs >= this.windowMs) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { startMs: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count > this.limit ? Math.max(1, Math.ceil((window.startMs + this.windowMs - now) / 1000)) : 0;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.startMs >= this.windowMs) this.windows.delete(key);
  }
}
