import type { Chunk } from './chunk-text.ts';

/**
 * Exact-mode tokens, the same definition `literalPatternPg` enforces with regex boundaries: a run
 * of letters/digits in which a single `.`, `-` or `/` between two letters/digits does not split.
 * Lower-cased, because exact mode is case-insensitive.
 */
const TOKEN = /[\p{L}\p{N}]+(?:[./-][\p{L}\p{N}]+)*/gu;
/** What may separate two words of an exact phrase: blanks with at most one line break. */
const PHRASE_GAP = /^(?:[ \t]+\n?|\n)[ \t]*$/;
const PURE_TOKEN = /^[\p{L}\p{N}]+(?:[./-][\p{L}\p{N}]+)*$/u;

/** Positions of one chunk start here: no phrase can span two chunks, as with the regex count. */
export const CHUNK_POSITION_STRIDE = 16_384;

/** One term's postings in a document. */
export interface TermPostings {
  readonly positions: number[];
  /** The term right after each occurrence that an exact phrase may join to it (see follower-list.ts). */
  readonly followers: string[];
}

/**
 * Term → positions for a document. Consecutive tokens are one position apart when an exact
 * phrase may join them and two apart otherwise, so "words at consecutive positions" is exactly
 * "an exact phrase match"; a token one position on is also recorded as its predecessor's
 * follower, so a two-word phrase is countable from the first word's row alone.
 */
export function exactTokenPostings(chunks: readonly Chunk[]): Map<string, TermPostings> {
  const postings = new Map<string, TermPostings>();
  for (const chunk of chunks) {
    let position = chunk.ordinal * CHUNK_POSITION_STRIDE;
    let previousEnd = -1;
    let previous: TermPostings | undefined;
    for (const m of chunk.text.matchAll(TOKEN)) {
      const adjacent = previousEnd >= 0 && PHRASE_GAP.test(chunk.text.slice(previousEnd, m.index));
      if (previousEnd >= 0) position += adjacent ? 1 : 2;
      previousEnd = m.index + m[0].length;
      const term = m[0].toLowerCase();
      if (adjacent) previous!.followers.push(term);
      let entry = postings.get(term);
      if (entry) entry.positions.push(position);
      else postings.set(term, (entry = { positions: [position], followers: [] }));
      previous = entry;
    }
    if (position - chunk.ordinal * CHUNK_POSITION_STRIDE >= CHUNK_POSITION_STRIDE) {
      throw new Error(`chunk ${chunk.ordinal} has too many tokens for the postings index`);
    }
  }
  return postings;
}

/**
 * The lower-cased terms of an exact query when postings can count it exactly: every word is
 * one whole token, and the phrase cannot overlap itself (the regex counts non-overlapping
 * matches; positions would count `a a` twice in `a a a`). Otherwise undefined: use the regex.
 */
export function postingTermsOf(words: readonly string[]): string[] | undefined {
  if (!words.every((w) => PURE_TOKEN.test(w))) return undefined;
  const terms = words.map((w) => w.toLowerCase());
  for (let k = 1; k < terms.length; k++) {
    if (terms.slice(k).every((t, i) => t === terms[i])) return undefined;
  }
  return terms;
}
