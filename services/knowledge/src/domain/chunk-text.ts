/** A passage of the `DOC:` text: `text === doc.slice(startOffset, endOffset)`. */
export interface Chunk {
  readonly ordinal: number;
  readonly startOffset: number;
  readonly endOffset: number;
  readonly text: string;
}

export interface ChunkOptions {
  /** Upper bound on a chunk's length. Keeps every lexeme well under tsvector's 256 positions. */
  readonly maxChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxChars: 1500 };

/**
 * Paragraph-sized chunks. Paragraphs (separated by a blank line) are packed together up to
 * `maxChars`; a longer paragraph is cut at a sentence end (lower-case letter, digit or bracket,
 * then `.;:`, then whitespace), else at whitespace, else hard. Cutting never happens inside a
 * line-wrapped phrase unless the paragraph has no sentence end in range — the one place an exact
 * phrase could straddle two chunks (documented in docs/knowledge.md).
 */
export function chunkText(doc: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  const { maxChars } = options;
  const pieces: Array<[number, number]> = [];
  const paragraphBreak = /\n[ \t]*\n\s*/g;
  let cursor = 0;
  for (const m of doc.matchAll(paragraphBreak)) {
    pushTrimmed(doc, cursor, m.index, pieces);
    cursor = m.index + m[0].length;
  }
  pushTrimmed(doc, cursor, doc.length, pieces);

  const bounded: Array<[number, number]> = [];
  for (const [s, e] of pieces) splitLong(doc, s, e, maxChars, bounded);

  const chunks: Chunk[] = [];
  let current: [number, number] | undefined;
  for (const piece of bounded) {
    if (current && piece[1] - current[0] <= maxChars) current[1] = piece[1];
    else {
      if (current) chunks.push(makeChunk(doc, chunks.length, current));
      current = [piece[0], piece[1]];
    }
  }
  if (current) chunks.push(makeChunk(doc, chunks.length, current));
  return chunks;
}

function makeChunk(doc: string, ordinal: number, [startOffset, endOffset]: [number, number]): Chunk {
  return { ordinal, startOffset, endOffset, text: doc.slice(startOffset, endOffset) };
}

function pushTrimmed(doc: string, start: number, end: number, out: Array<[number, number]>): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(doc[s])) s++;
  while (e > s && /\s/.test(doc[e - 1])) e--;
  if (e > s) out.push([s, e]);
}

function splitLong(doc: string, start: number, end: number, maxChars: number, out: Array<[number, number]>): void {
  let s = start;
  while (end - s > maxChars) {
    const window = doc.slice(s, s + maxChars + 1);
    let cut = -1;
    const sentenceEnd = /[a-z0-9)\]][.;:]\s+/g;
    for (const m of window.matchAll(sentenceEnd)) {
      const after = m.index + m[0].length;
      if (after <= maxChars && m.index > maxChars / 4) cut = m.index + 2;
    }
    if (cut < 0) {
      const space = window.lastIndexOf(' ', maxChars);
      const newline = window.lastIndexOf('\n', maxChars);
      const ws = Math.max(space, newline);
      cut = ws > 0 ? ws : maxChars;
    }
    pushTrimmed(doc, s, s + cut, out);
    s += cut;
    while (s < end && /\s/.test(doc[s])) s++;
  }
  pushTrimmed(doc, s, end, out);
}
