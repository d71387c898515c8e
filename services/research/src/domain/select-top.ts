/**
 * The best `m` items in `compare` order, sorted, in O(n log m): list_yields returns ~10 rows
 * out of tens of thousands, so sorting the whole candidate set would be most of its cost.
 */
export function selectTop<T>(items: readonly T[], m: number, compare: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (m <= 0) return top;
  for (const item of items) {
    if (top.length === m && compare(item, top[m - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(item, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, item);
    if (top.length > m) top.pop();
  }
  return top;
}
