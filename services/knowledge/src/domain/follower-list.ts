/**
 * A follower list is, for one term of one document, the terms that come right after each of its
 * occurrences, each wrapped in FOLLOWER_MARK: `\u0002margin\u0002\u0002rate\u0002`. Counting a
 * two-word phrase is then counting `\u0002second\u0002` inside the first word's list, one string
 * operation on one posting row per document instead of joining two rows' positions.
 *
 * The mark never occurs inside a term (exact tokens are letters/digits joined by `.` `-` `/`;
 * `english` lexemes come from word tokens), so every match is exactly one whole entry and
 * non-overlapping counting is exact.
 */
export const FOLLOWER_MARK = '\u0002';

export function encodeFollowers(followers: readonly string[]): string {
  return followers.map((f) => `${FOLLOWER_MARK}${f}${FOLLOWER_MARK}`).join('');
}

/** The entry a follower list is searched for: the same wrapping as `encodeFollowers`. */
export function followerEntry(term: string): string {
  return `${FOLLOWER_MARK}${term}${FOLLOWER_MARK}`;
}
