import type { Chunk } from './chunk-text.ts';

/**
 * Rule-based entity extraction over the `DOC:` text. Deterministic and model-free, so a graph
 * is reproducible and every mention is an exact span of the text it was read from.
 */
export type EntityKind =
  | 'organization'
  | 'person'
  | 'money'
  | 'percentage'
  | 'date'
  | 'defined_term'
  | 'section'
  | 'identifier';

export interface Mention {
  readonly start: number;
  readonly end: number;
}

export interface ExtractedEntity {
  readonly kind: EntityKind;
  /** Normalised identity within the document (e.g. `usd:1000000`, `section:2.5.3`). */
  readonly key: string;
  readonly label: string;
  readonly attrs: Record<string, unknown>;
  readonly mentions: Mention[];
}

export interface ExtractedRelation {
  readonly kind: 'defines' | 'co_occurs';
  readonly from: string;
  readonly to: string | null;
  readonly start: number;
  readonly end: number;
  readonly weight: number;
}

export interface ExtractedGraph {
  readonly entities: ExtractedEntity[];
  readonly relations: ExtractedRelation[];
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const CURRENCY_SYMBOLS: Record<string, string> = { $: 'USD', 'US$': 'USD', 'A$': 'AUD', 'C$': 'CAD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };
const ORG_SUFFIX =
  "(?:Inc\\.?|Incorporated|Corporation|Corp\\.?|Company|Co\\.|LLC|L\\.L\\.C\\.|Ltd\\.?|Limited|L\\.P\\.|LP|LLP|plc|PLC|N\\.A\\.|S\\.A\\.|AG|GmbH|Bank|Trust|Partners|Holdings)";
const CAP_WORD = "(?:[A-Z][A-Za-z&'.-]*|of|and|the|de|&)";

interface Rule {
  readonly kind: EntityKind;
  readonly pattern: RegExp;
  /** Returns [key, label, attrs] or undefined to skip the match; `group` picks the span. */
  readonly read: (m: RegExpMatchArray) => { key: string; label: string; attrs?: Record<string, unknown>; group?: number } | undefined;
}

const RULES: Rule[] = [
  {
    kind: 'money',
    pattern: /(US\$|A\$|C\$|\$|€|£|¥|\b(?:USD|EUR|GBP|AUD|CAD|JPY|CHF)\s?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(million|billion|thousand))?/g,
    read: (m) => {
      const currency = CURRENCY_SYMBOLS[m[1]] ?? m[1].trim();
      const scale = { million: 1e6, billion: 1e9, thousand: 1e3 }[m[4] as string] ?? 1;
      const amount = Number(`${m[2].replace(/,/g, '')}${m[3] ?? ''}`) * scale;
      return { key: `${currency.toLowerCase()}:${amount}`, label: m[0], attrs: { currency, amount } };
    },
  },
  {
    kind: 'percentage',
    pattern: /\b(\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b)/g,
    read: (m) => ({ key: `${Number(m[1])}%`, label: m[0], attrs: { value: Number(m[1]) } }),
  },
  {
    kind: 'date',
    pattern: new RegExp(`\\b(?:${MONTHS})\\s+\\d{1,2},\\s+\\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{4}\\b`, 'g'),
    read: (m) => {
      const parsed = new Date(`${m[0]}${/^\d{4}-/.test(m[0]) ? 'T00:00:00Z' : ' UTC'}`);
      const iso = Number.isNaN(parsed.getTime()) ? m[0].toLowerCase() : parsed.toISOString().slice(0, 10);
      return { key: iso, label: m[0], attrs: { iso } };
    },
  },
  {
    kind: 'section',
    pattern: /\b(Section|Article|Clause|Schedule|Exhibit)\s+(\d+(?:\.\d+)*(?:\([a-z0-9]+\))*|[IVXL]+\b|[A-Z]\b(?:-\d+)?)/g,
    read: (m) => ({ key: `${m[1].toLowerCase()} ${m[2].toLowerCase()}`, label: m[0] }),
  },
  {
    kind: 'identifier',
    pattern: /\b(CUSIP|ISIN|LEI|ACN|ABN|EIN|Employer Identification No\.?)(?:\s+(?:No\.|Number|number|no\.))?[:\s]+([0-9A-Z][0-9A-Z -]{5,22}[0-9A-Z])/g,
    read: (m) => {
      const scheme = m[1].startsWith('Employer') ? 'EIN' : m[1];
      const value = m[2].trim();
      return { key: `${scheme.toLowerCase()}:${value.replace(/[\s-]/g, '').toLowerCase()}`, label: value, attrs: { scheme }, group: 2 };
    },
  },
  {
    kind: 'identifier',
    // A bare LEI: 18 alphanumerics + 2 check digits (ISO 17442), upper-case only.
    pattern: /\b[0-9A-Z]{18}[0-9]{2}\b/g,
    read: (m) => (/[A-Z]/.test(m[0]) && /\d/.test(m[0]) ? { key: `lei:${m[0].toLowerCase()}`, label: m[0], attrs: { scheme: 'LEI' } } : undefined),
  },
  {
    kind: 'organization',
    pattern: new RegExp(`\\b[A-Z][A-Za-z&'.-]*(?:[ ,]+${CAP_WORD}){0,6}?[ ,]+${ORG_SUFFIX}(?![A-Za-z])`, 'g'),
    read: (m) => {
      const label = m[0].replace(/\s+/g, ' ');
      if (/^(The|This|Such|Each|Any|Such|Section|Article)\b/.test(label) && label.split(' ').length < 3) return undefined;
      return { key: label.toLowerCase().replace(/[.,]/g, '').replace(/\s+/g, ' '), label };
    },
  },
  {
    kind: 'person',
    // Signature blocks: "Name: Jane Q. Smith" / "By: /s/ Jane Smith".
    pattern: /\b(?:Name|By):[ \t]*(?:\/s\/[ \t]*)?([A-Z][a-z]+(?:[ \t]+[A-Z]\.)?(?:[ \t]+[A-Z][a-zA-Z'-]+){1,2})/g,
    read: (m) => ({ key: m[1].toLowerCase().replace(/\s+/g, ' '), label: m[1].replace(/\s+/g, ' '), group: 1 }),
  },
];

/** `"Borrower" means …` / `"Borrower" shall mean …` / `"Borrower" has the meaning …`. */
const DEFINITION = /"([A-Z][A-Za-z0-9'&/ -]{0,80}?)"\s+(?:shall\s+)?(?:means?|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|refers?\s+to|includes?)\b/g;
/** A parenthetical definition: (the "Borrower") / (collectively, the "Lenders"). */
const PARENTHETICAL = /\((?:[a-z, ]{0,40})?(?:the\s+)?"([A-Z][A-Za-z0-9'&/ -]{0,80}?)"\)/g;

function spanOf(m: RegExpMatchArray, group: number | undefined): Mention {
  if (!group) return { start: m.index!, end: m.index! + m[0].length };
  const start = m.index! + m[0].indexOf(m[group]);
  return { start, end: start + m[group].length };
}

function sentenceEnd(doc: string, from: number, limit: number): number {
  const slice = doc.slice(from, Math.min(doc.length, from + limit));
  const end = slice.search(/[.;]\s*(?:\n|$)|\.\s+"|\n\s*\n/);
  return from + (end < 0 ? slice.length : end + 1);
}

export function extractEntities(doc: string, chunks: readonly Chunk[], maxPairsPerChunk = 45): ExtractedGraph {
  const byId = new Map<string, { kind: EntityKind; key: string; label: string; attrs: Record<string, unknown>; mentions: Mention[] }>();
  const taken: Mention[] = [];
  const add = (kind: EntityKind, key: string, label: string, attrs: Record<string, unknown>, span: Mention) => {
    const id = `${kind}|${key}`;
    let e = byId.get(id);
    if (!e) byId.set(id, (e = { kind, key, label, attrs, mentions: [] }));
    if (!e.mentions.some((x) => x.start === span.start)) e.mentions.push(span);
    taken.push(span);
    return id;
  };
  const relations: ExtractedRelation[] = [];

  for (const m of doc.matchAll(DEFINITION)) {
    const term = m[1].trim();
    const start = m.index! + 1;
    const id = add('defined_term', term.toLowerCase(), term, {}, { start, end: start + term.length });
    const defEnd = sentenceEnd(doc, m.index! + m[0].length, 1200);
    relations.push({ kind: 'defines', from: id, to: null, start: m.index!, end: defEnd, weight: 1 });
  }
  for (const m of doc.matchAll(PARENTHETICAL)) {
    const term = m[1].trim();
    const start = m.index! + m[0].indexOf(m[1]);
    add('defined_term', term.toLowerCase(), term, {}, { start, end: start + term.length });
  }
  for (const rule of RULES) {
    for (const m of doc.matchAll(rule.pattern)) {
      const read = rule.read(m);
      if (!read) continue;
      const span = spanOf(m, read.group);
      // Later, vaguer rules (organisations, bare identifiers) never claim a span a precise rule took.
      if (taken.some((t) => t.start < span.end && span.start < t.end)) continue;
      add(rule.kind, read.key, read.label, read.attrs ?? {}, span);
    }
  }

  // Co-occurrence within a clause (a chunk): one relation per unordered pair, weighted by count.
  const mentionIndex: Array<{ id: string; start: number }> = [];
  for (const [id, e] of byId) for (const mm of e.mentions) mentionIndex.push({ id, start: mm.start });
  mentionIndex.sort((a, b) => a.start - b.start);
  const cooccurrence = new Map<string, { kind: 'co_occurs'; from: string; to: string; start: number; end: number; weight: number }>();
  let i = 0;
  for (const chunk of chunks) {
    const inChunk = new Set<string>();
    while (i < mentionIndex.length && mentionIndex[i].start < chunk.startOffset) i++;
    let j = i;
    while (j < mentionIndex.length && mentionIndex[j].start < chunk.endOffset) inChunk.add(mentionIndex[j++].id);
    const ids = [...inChunk].filter((id) => !id.startsWith('date|') || inChunk.size < 10).sort();
    let pairs = 0;
    for (let a = 0; a < ids.length && pairs < maxPairsPerChunk; a++) {
      for (let b = a + 1; b < ids.length && pairs < maxPairsPerChunk; b++, pairs++) {
        const pair = `${ids[a]}\u0000${ids[b]}`;
        const seen = cooccurrence.get(pair);
        if (seen) seen.weight++;
        else cooccurrence.set(pair, { kind: 'co_occurs', from: ids[a], to: ids[b], start: chunk.startOffset, end: chunk.endOffset, weight: 1 });
      }
    }
  }
  for (const r of cooccurrence.values()) relations.push(r);

  // Attach each definition to the first entity mentioned inside it (e.g. "Borrower" → Acme Corp.).
  const resolved = relations.map((r) => {
    if (r.kind !== 'defines') return r;
    const target = mentionIndex.find((x) => x.start > r.start + 2 && x.start < r.end && x.id !== r.from);
    return target ? { ...r, to: target.id } : r;
  });

  const entities = [...byId.values()].map((e) => ({ ...e, mentions: e.mentions.sort((a, b) => a.start - b.start) }));
  return { entities, relations: resolved };
}

/** The map key `extractEntities` uses in relations for an entity. */
export function entityRef(kind: EntityKind, key: string): string {
  return `${kind}|${key}`;
}
