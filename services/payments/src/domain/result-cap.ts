/** Seed 001 "Results and failures": the whole serialised result is capped at 256 KiB. */
export const RESULT_MAX_BYTES = 256 * 1024;

/** Bytes of the result as it goes on the wire: the document appears twice (text and structuredContent). */
export function resultBytes(document: unknown): number {
  return Buffer.byteLength(JSON.stringify(document)) * 2 + 256;
}

/**
 * Keeps the longest prefix of `items` whose page fits the cap. When items had to be dropped the
 * page says so and `next_cursor` resumes at the first dropped item, so nothing is lost.
 */
export function fitPage<T>(
  items: readonly T[],
  build: (items: readonly T[], truncated: boolean) => Record<string, unknown>,
  maxBytes = RESULT_MAX_BYTES,
): { document: Record<string, unknown>; kept: number } | undefined {
  let document = build(items, false);
  if (resultBytes(document) <= maxBytes) return { document, kept: items.length };
  let lo = 0;
  let hi = items.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (resultBytes(build(items.slice(0, mid), true)) <= maxBytes) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best <= 0) return undefined;
  document = build(items.slice(0, best), true);
  return { document, kept: best };
}
