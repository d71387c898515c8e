/**
 * What one caller may see and call. `'*'` allows every category (or tier).
 */
export interface AccessPolicy {
  readonly categories: readonly string[];
  readonly tiers: readonly string[];
}

export interface ToolAccessKey {
  readonly upstreamCategories: readonly string[];
  readonly tier: string;
}

/**
 * The one authorization decision. It is keyed by the upstream's (categories, tier) — the same
 * key whether the caller is listing or calling — so what a client can see and what it can call
 * never diverge (agentgateway's merge-time policy). A tool is allowed when its tier is allowed
 * and at least one of its upstream's categories is.
 */
export function authorizeTool(policy: AccessPolicy, key: ToolAccessKey): boolean {
  const tierOk = policy.tiers.includes('*') || policy.tiers.includes(key.tier);
  if (!tierOk) return false;
  if (policy.categories.includes('*')) return true;
  return key.upstreamCategories.some((c) => policy.categories.includes(c));
}

/** An OAuth scope like `gateway:category:defi` or `gateway:tier:free` narrows a policy further. */
export function narrowByScopes(policy: AccessPolicy, scopes: readonly string[]): AccessPolicy {
  const cats = scopes.filter((s) => s.startsWith('gateway:category:')).map((s) => s.slice('gateway:category:'.length));
  const tiers = scopes.filter((s) => s.startsWith('gateway:tier:')).map((s) => s.slice('gateway:tier:'.length));
  const intersect = (base: readonly string[], narrow: string[]) =>
    narrow.length === 0 ? base : base.includes('*') ? narrow : base.filter((b) => narrow.includes(b));
  return { categories: intersect(policy.categories, cats), tiers: intersect(policy.tiers, tiers) };
}
