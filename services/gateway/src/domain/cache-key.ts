import { canonicalJson, sha256Hex } from './canonical-json.ts';

/**
 * A cache key for a read-only call: the caller's scope (its subject — our upstreams answer per
 * person, so one person's cached answer must never reach another), the advertised tool, the
 * pinned definition hash (a re-approved definition starts cold) and the canonical arguments.
 */
export function cacheKey(scope: string, tool: string, definitionSha256: string, args: unknown): string {
  return sha256Hex(`${scope}\u0000${tool}\u0000${definitionSha256}\u0000${canonicalJson(args)}`);
}
