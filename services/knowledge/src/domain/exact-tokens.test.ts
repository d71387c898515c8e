import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text.ts';
import { literalPatternJs, type LiteralPlan } from './count-query.ts';
import { exactTokenPostings, postingTermsOf } from './exact-tokens.ts';
import { encodeFollowers, followerEntry } from './follower-list.ts';

/** Occurrences of a term sequence from postings, the way match-store counts them in SQL. */
function countFromPostings(text: string, words: string[]): number {
  const postings = exactTokenPostings(chunkText(text));
  const terms = postingTermsOf(words)!;
  const heads = postings.get(terms[0])?.positions ?? [];
  return heads.filter((p) => terms.every((t, i) => (postings.get(t)?.positions ?? []).includes(p + i))).length;
}

/** A two-word phrase from the first word's follower list, the way match-store counts it in SQL. */
function countFromFollowers(text: string, [first, second]: string[]): number {
  const list = encodeFollowers(exactTokenPostings(chunkText(text)).get(first.toLowerCase())?.followers ?? []);
  return list.split(followerEntry(second.toLowerCase())).length - 1;
}

function countFromRegex(text: string, words: string[]): number {
  const plan: LiteralPlan = { mode: 'exact', query: words.join(' '), words };
  return chunkText(text).reduce((n, c) => n + [...c.text.matchAll(literalPatternJs(plan))].length, 0);
}

describe('exactTokenPostings agrees with the exact-mode regex', () => {
  const vocabulary = ['Borrower', 'borrower', 'Co-Borrower', "Borrower's", 'Borrowers', 'rate', 'interest', '2.5.3', '2.5.3.1', '12.5.3', 'U.S.', 'x/y'];
  const separators = [' ', '  ', '\t', '\n', ' \n ', '\n\n', ', ', '. ', '-', '/', '.', ' (', ') ', '\u2014'];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const texts = Array.from({ length: 200 }, () => Array.from({ length: 60 }, () => vocabulary[next(vocabulary.length)] + separators[next(separators.length)]).join(''));

  it.each([[['Borrower']], [['2.5.3']], [['interest', 'rate']], [['rate', 'Borrower', 'interest']], [['x/y']]])('%j', (words) => {
    for (const text of texts) expect(countFromPostings(text, words)).toBe(countFromRegex(text, words));
  });

  it.each([[['interest', 'rate']], [['rate', 'Borrower']], [['rate', '2.5.3']], [['x/y', 'interest']]])('follower list of %j', (words) => {
    for (const text of texts) {
      expect(countFromFollowers(text, words)).toBe(countFromPostings(text, words));
      expect(countFromFollowers(text, words)).toBe(countFromRegex(text, words));
    }
  });

  it('refuses words that are not whole tokens, and self-overlapping phrases', () => {
    expect(postingTermsOf(["Borrower's"])).toBeUndefined();
    expect(postingTermsOf(['U.S.'])).toBeUndefined();
    expect(postingTermsOf(['a', 'a'])).toBeUndefined();
    expect(postingTermsOf(['to', 'be', 'to'])).toBeUndefined();
    expect(postingTermsOf(['Interest', 'Rate'])).toEqual(['interest', 'rate']);
  });
});
