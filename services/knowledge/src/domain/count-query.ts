/**
 * Query parsing for the exhaustive tools (`count`, `enumerate`, `freeze_set`, `count_in_set`).
 *
 * - `exact` (default): the query is one literal token sequence. Case-insensitive, no stemming,
 *   whole tokens only: a token is a run of letters/digits in which `.`, `-` and `/` between two
 *   letters/digits do not split, so `2.5.3` matches neither `2.5.3.1` nor `12.5.3`, and
 *   `87512QAJ9` only itself. Words may be separated by any run of spaces/tabs with at most one
 *   line break (a hard wrap), never a blank line (a paragraph break).
 * - `phrase`: English stemming via Postgres `english`; alternatives separated by `OR`;
 *   `-word` / `-"two words"` exclude every document containing them (document-level negation).
 * - `fuzzy`: case-insensitive substring, matching inside longer words. Never a finding.
 */
export type CountMode = 'exact' | 'phrase' | 'fuzzy';

export interface LiteralPlan {
  readonly mode: 'exact' | 'fuzzy';
  readonly query: string;
  readonly words: readonly string[];
}

export interface PhrasePlan {
  readonly mode: 'phrase';
  readonly query: string;
  readonly alternatives: readonly string[];
  readonly excluded: readonly string[];
}

export type MatchPlan = LiteralPlan | PhrasePlan;

export class QueryParseError extends Error {
  override name = 'QueryParseError';
}

const MAX_QUERY_CHARS = 500;
const MAX_WORDS = 32;

export function parseCountQuery(query: string, mode: CountMode = 'exact'): MatchPlan {
  const trimmed = query.trim();
  if (!trimmed) throw new QueryParseError('query is empty');
  if (trimmed.length > MAX_QUERY_CHARS) throw new QueryParseError(`query is longer than ${MAX_QUERY_CHARS} characters`);
  if (mode === 'phrase') return parsePhraseQuery(trimmed);
  const unquoted = /^"[^"]+"$/.test(trimmed) ? trimmed.slice(1, -1).trim() : trimmed;
  const words = unquoted.split(/\s+/).filter(Boolean);
  if (!words.length) throw new QueryParseError('query is empty');
  if (words.length > MAX_WORDS) throw new QueryParseError(`query has more than ${MAX_WORDS} words`);
  return { mode, query: trimmed, words };
}

function parsePhraseQuery(query: string): PhrasePlan {
  const alternatives: string[] = [];
  const excluded: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) alternatives.push(current.join(' '));
    current = [];
  };
  const token = /(-?)"([^"]*)"|(\S+)/g;
  for (const m of query.matchAll(token)) {
    if (m[3] === 'OR') {
      flush();
      continue;
    }
    const negated = m[1] === '-' || (m[3] !== undefined && m[3].startsWith('-') && m[3].length > 1);
    const text = (m[2] ?? (m[3].startsWith('-') && m[3].length > 1 ? m[3].slice(1) : m[3])).trim();
    if (!text) continue;
    if (negated) excluded.push(text);
    else current.push(text);
  }
  flush();
  if (!alternatives.length) throw new QueryParseError('phrase query needs at least one term that is not negated');
  return { mode: 'phrase', query, alternatives, excluded };
}

// ─── Regex rendering (exact / fuzzy) ───
// The same plan is rendered for Postgres AREs (counting in SQL) and for JavaScript (locating
// matches inside an already-counted chunk), so both sides agree on what a match is.

const PG_SEPARATOR = '(?:[[:blank:]]+\\n?|\\n)[[:blank:]]*';
const JS_SEPARATOR = '(?:[ \\t]+\\n?|\\n)[ \\t]*';
const isAlnum = (ch: string) => /[\p{L}\p{N}]/u.test(ch);

function escapePg(word: string): string {
  // In an ARE a backslash before a non-alphanumeric character is always that literal character.
  return word.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`);
}

function escapeJs(word: string): string {
  return word.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);
}

export function literalPatternPg(plan: LiteralPlan): string {
  const body = plan.words.map(escapePg).join(PG_SEPARATOR);
  if (plan.mode === 'fuzzy') return body;
  const first = plan.words[0][0];
  const lastWord = plan.words[plan.words.length - 1];
  // The leading boundary is spelled as a consumed prefix rather than the equivalent lookbehinds
  // (not alnum, and not a joiner that follows an alnum): Postgres evaluates it about twice as
  // fast. It never eats into a previous match, which always ends on an alphanumeric character.
  const before = isAlnum(first) ? '(?:^|[^[:alnum:]./-]|[^[:alnum:]][./-]|^[./-])' : '';
  const after = isAlnum(lastWord[lastWord.length - 1]) ? '(?![[:alnum:]])(?![-./][[:alnum:]])' : '';
  return `${before}${body}${after}`;
}

export function literalPatternJs(plan: LiteralPlan): RegExp {
  const body = plan.words.map(escapeJs).join(JS_SEPARATOR);
  if (plan.mode === 'fuzzy') return new RegExp(body, 'giu');
  const first = plan.words[0][0];
  const lastWord = plan.words[plan.words.length - 1];
  const before = isAlnum(first) ? '(?<![\\p{L}\\p{N}])(?<![\\p{L}\\p{N}][\\-./])' : '';
  const after = isAlnum(lastWord[lastWord.length - 1]) ? '(?![\\p{L}\\p{N}])(?![\\-./][\\p{L}\\p{N}])' : '';
  return new RegExp(`${before}${body}${after}`, 'giu');
}

/** What the caller is told was counted, so a number is never separated from its definition. */
export function describePlan(plan: MatchPlan): Record<string, unknown> {
  if (plan.mode === 'phrase') {
    return { mode: 'phrase', alternatives: plan.alternatives, excluded_documents_containing: plan.excluded };
  }
  return {
    mode: plan.mode,
    tokens: plan.words,
    ...(plan.mode === 'fuzzy'
      ? { note: 'fuzzy: substring matches, including inside longer words; an indication, never a finding' }
      : { note: 'exact: case-insensitive whole tokens, no stemming' }),
  };
}
