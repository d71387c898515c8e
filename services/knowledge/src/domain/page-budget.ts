/**
 * Cuts a page to the response budget inside our own paging, so a client always gets a
 * well-formed page with `truncated: true` and a cursor at the first dropped item, instead of
 * hitting the transport's 256 KiB backstop and losing the whole answer.
 */
export interface BudgetedPage<T> {
  readonly items: T[];
  readonly truncated: boolean;
}

export function fitToBudget<T>(items: readonly T[], budgetBytes: number, envelopeBytes = 512): BudgetedPage<T> {
  let used = envelopeBytes;
  const kept: T[] = [];
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    // Always keep the first item (cut to fit by its producer) so paging always makes progress.
    if (kept.length > 0 && used + size > budgetBytes) return { items: kept, truncated: true };
    used += size;
    kept.push(item);
  }
  return { items: kept, truncated: false };
}

/** The largest prefix of `text` whose UTF-8 encoding fits in `budgetBytes`. */
export function cutTextToBudget(text: string, budgetBytes: number): string {
  if (Buffer.byteLength(text) <= budgetBytes) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (Buffer.byteLength(text.slice(0, mid)) <= budgetBytes) lo = mid;
    else hi = mid - 1;
  }
  // Never split a surrogate pair.
  if (lo > 0 && /[\ud800-\udbff]/.test(text[lo - 1])) lo--;
  return text.slice(0, lo);
}
