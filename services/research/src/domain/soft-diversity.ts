/** Presented top-k keeps at most this many markets per protocolSlug (seed "Soft diversity"). */
export const MAX_PER_PROTOCOL = 2;

export interface DiversityResult<T> {
  readonly rows: T[];
  /** True when a row that would otherwise be in the top-k was skipped for protocol diversity. */
  readonly truncatedDueToDiversity: boolean;
}

/**
 * Walks rows in their final sort order and skips a protocol's third and later markets until
 * `limit` rows are taken. Presentation only: scores and order among kept rows are unchanged.
 */
export function softDiversityTopK<T>(sorted: readonly T[], limit: number, protocolOf: (row: T) => string): DiversityResult<T> {
  const perProtocol = new Map<string, number>();
  const rows: T[] = [];
  let truncated = false;
  for (const row of sorted) {
    if (rows.length >= limit) break;
    const slug = protocolOf(row);
    const n = perProtocol.get(slug) ?? 0;
    if (n >= MAX_PER_PROTOCOL) {
      truncated = true;
      continue;
    }
    perProtocol.set(slug, n + 1);
    rows.push(row);
  }
  return { rows, truncatedDueToDiversity: truncated };
}
