/**
 * Intent-first tool search (seed 003: "start from user intent, not provider names"). A BM25
 * ranking over three weighted fields — the tool's name, its description, and its input schema's
 * property names and descriptions — with light stemming and a small finance-intent synonym table,
 * so "how many contracts mention SOFR" reaches a `count` tool and "send 50 USDC to Alice" reaches
 * `propose_send`. The index is built once per catalog change; a query touches only the postings
 * of its own terms, which keeps p95 well under 15 ms at 5,000 tools.
 */

export interface SearchDocument {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Property names and descriptions of the input schema, flattened. */
  readonly schemaText: string;
}

export interface SearchIndex {
  readonly docs: readonly SearchDocument[];
  readonly postings: ReadonlyMap<string, ReadonlyArray<readonly [doc: number, weight: number]>>;
  readonly docLength: Float64Array;
  readonly avgLength: number;
}

export interface ScoredHit {
  readonly doc: number;
  readonly score: number;
}

const FIELD_WEIGHT = { name: 3, description: 1, schema: 0.5 } as const;
const K1 = 1.2;
const B = 0.6;

const STOPWORDS = new Set(
  'a an the of on in to for and or is are be by with from at as me my i we our you your it its this that what which who whom how do does did can could should would please get give show find tell any some all about into than then them there their'.split(
    ' ',
  ),
);

/**
 * Intent words → the vocabulary tools use. Deliberately small and domain-specific: a query term
 * also searches as each of its synonyms at a reduced weight.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  yield: ['apy', 'apr', 'yield', 'pool', 'earn', 'interest'],
  apy: ['yield', 'apr'],
  earn: ['yield', 'apy'],
  interest: ['yield', 'apy', 'rate'],
  best: ['top', 'rank', 'score'],
  top: ['best', 'rank'],
  send: ['pay', 'transfer', 'propose', 'payment'],
  pay: ['send', 'payment', 'transfer'],
  transfer: ['send', 'pay'],
  wire: ['send', 'pay', 'transfer'],
  payment: ['pay', 'send'],
  move: ['send', 'transfer'],
  many: ['count', 'total', 'number'],
  count: ['total', 'number', 'many'],
  number: ['count'],
  total: ['count'],
  mention: ['contain', 'match', 'term'],
  contain: ['mention', 'match'],
  contract: ['document', 'agreement', 'deal', 'file'],
  agreement: ['contract', 'document'],
  document: ['file', 'contract', 'doc'],
  doc: ['document', 'file'],
  file: ['document'],
  risk: ['safety', 'security', 'audit', 'exploit'],
  safe: ['risk', 'safety', 'security'],
  safety: ['risk', 'security'],
  compare: ['comparison', 'versus', 'rank'],
  versus: ['compare'],
  vs: ['compare'],
  explain: ['explanation', 'breakdown', 'why'],
  why: ['explain', 'breakdown'],
  balance: ['wallet', 'holding', 'fund'],
  wallet: ['balance', 'account', 'address'],
  swap: ['exchange', 'trade', 'convert'],
  trade: ['swap', 'exchange'],
  convert: ['swap'],
  status: ['state', 'progress', 'settlement'],
  settle: ['settlement', 'complete', 'wait'],
  settlement: ['settle', 'wait'],
  price: ['quote', 'market', 'rate'],
  stablecoin: ['usdc', 'usdt', 'dai', 'stable', 'peg'],
  usdc: ['stablecoin', 'stable'],
  depeg: ['peg', 'stablecoin'],
  peg: ['depeg', 'stablecoin'],
  contact: ['counterparty', 'recipient', 'payee'],
  recipient: ['contact', 'payee'],
  ask: ['question', 'answer'],
  question: ['ask', 'answer'],
  summarize: ['summary', 'answer'],
  upload: ['ingest', 'add', 'import'],
  list: ['enumerate', 'all'],
  enumerate: ['list'],
  history: ['past', 'timeseries', 'chart'],
  chart: ['history', 'timeseries'],
  weather: ['forecast', 'temperature'],
  forecast: ['weather'],
};
const SYNONYM_WEIGHT = 0.45;

/** Multi-word intents that name an operation outright; their terms count as fully as the user's own. */
const INTENT_PHRASES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/how many|number of/i, ['count']],
  [/how much.*(hold|have|own)/i, ['balance', 'asset']],
  [/(settled|cleared)/i, ['settlement', 'wait']],
  [/what does.*say/i, ['ask', 'question', 'answer']],
  [/find documents?|search (my )?(documents|contracts|files)/i, ['search', 'passage']],
];

/** Light suffix stripping: plural, -ing, -ed, -ies. Enough for tool vocabulary. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(sh|ch|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits snake_case, camelCase, kebab-case and prose into stemmed, stopword-free terms. */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const out: string[] = [];
  for (const raw of spaced.split(/[^a-z0-9]+/)) {
    if (!raw || STOPWORDS.has(raw)) continue;
    if (/^\d+$/.test(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function addTerms(target: Map<string, number>, terms: string[], weight: number): void {
  for (const term of terms) target.set(term, (target.get(term) ?? 0) + weight);
}

export function buildSearchIndex(docs: readonly SearchDocument[]): SearchIndex {
  const postings = new Map<string, Array<readonly [number, number]>>();
  const docLength = new Float64Array(docs.length);
  let total = 0;
  docs.forEach((doc, i) => {
    const tf = new Map<string, number>();
    addTerms(tf, tokenize(doc.name), FIELD_WEIGHT.name);
    addTerms(tf, tokenize(doc.description), FIELD_WEIGHT.description);
    addTerms(tf, tokenize(doc.schemaText), FIELD_WEIGHT.schema);
    let length = 0;
    for (const [term, weight] of tf) {
      length += weight;
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push([i, weight]);
    }
    docLength[i] = length;
    total += length;
  });
  return { docs, postings, docLength, avgLength: docs.length ? total / docs.length : 1 };
}

/** Query terms with their weights: each term at 1, its synonyms at SYNONYM_WEIGHT. */
export function expandQuery(query: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const [pattern, terms] of INTENT_PHRASES) if (pattern.test(query)) for (const t of terms) weights.set(stem(t), 1);
  for (const term of tokenize(query)) {
    weights.set(term, Math.max(weights.get(term) ?? 0, 1));
    for (const synonym of SYNONYMS[term] ?? []) {
      const s = stem(synonym);
      weights.set(s, Math.max(weights.get(s) ?? 0, SYNONYM_WEIGHT));
    }
  }
  return weights;
}

/** Ranks documents (optionally only those `allowed`) for a query; best first, zero scores dropped. */
export function rankDocuments(index: SearchIndex, query: string, allowed?: (doc: number) => boolean): ScoredHit[] {
  const n = index.docs.length;
  const scores = new Map<number, number>();
  for (const [term, queryWeight] of expandQuery(query)) {
    const list = index.postings.get(term);
    if (!list) continue;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const [doc, tf] of list) {
      if (allowed && !allowed(doc)) continue;
      const norm = tf + K1 * (1 - B + (B * index.docLength[doc]!) / index.avgLength);
      const s = queryWeight * idf * ((tf * (K1 + 1)) / norm);
      scores.set(doc, (scores.get(doc) ?? 0) + s);
    }
  }
  const hits: ScoredHit[] = [];
  for (const [doc, score] of scores) hits.push({ doc, score });
  hits.sort((a, b) => b.score - a.score || index.docs[a.doc]!.id.localeCompare(index.docs[b.doc]!.id));
  return hits;
}

/** Flattens an input schema's property names and descriptions for the `schema` field. */
export function schemaSearchText(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 4) return '';
  const parts: string[] = [];
  const s = schema as { properties?: Record<string, unknown>; description?: unknown; items?: unknown; enum?: unknown };
  if (typeof s.description === 'string') parts.push(s.description);
  if (Array.isArray(s.enum)) parts.push(s.enum.filter((e) => typeof e === 'string').join(' '));
  if (s.properties && typeof s.properties === 'object') {
    for (const [key, value] of Object.entries(s.properties)) parts.push(key, schemaSearchText(value, depth + 1));
  }
  if (s.items) parts.push(schemaSearchText(s.items, depth + 1));
  return parts.join(' ');
}
