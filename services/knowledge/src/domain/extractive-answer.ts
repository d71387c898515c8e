/**
 * Grounded, extractive answers: the answer is made only of sentences copied verbatim from
 * retrieved passages, each with the span it came from, so no claim can exist without a citation.
 * No model is involved; when no sentence shares enough of the question's content words the
 * answer is `null` and the caller is told plainly that nothing supports one.
 */
export interface CandidatePassage {
  readonly ref: number;
  /** Offset of `text` inside its `DOC:` text. */
  readonly startOffset: number;
  readonly text: string;
}

export interface AnswerSentence {
  readonly ref: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly score: number;
}

const STOP = new Set(
  'a an and are as at be by can could did do does for from had has have how i if in into is it its may might must of on or shall should than that the their them then there these this those to under upon was were what when where which who whom whose why will with would you your about any all each such per our we'.split(' '),
);

/** Crude, deterministic stemming for overlap only (the ranking itself used Postgres' stemmer). */
function stem(word: string): string {
  const w = word.toLowerCase();
  return w.length > 5 ? w.slice(0, Math.max(5, w.length - 3)) : w;
}

export function contentStems(question: string): string[] {
  const words = question.match(/[\p{L}\p{N}]+(?:[-.][\p{L}\p{N}]+)*/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP.has(w.toLowerCase()) && w.length > 1).map(stem))];
}

function sentencesOf(passage: CandidatePassage): Array<{ start: number; end: number; text: string }> {
  const out: Array<{ start: number; end: number; text: string }> = [];
  // Sentences end at . ; ! ? followed by space, or at a paragraph break; hard wraps are kept inside.
  const boundary = /(?<=[a-z0-9)"'][.;!?])\s+(?=["(A-Z0-9])|\n\s*\n/g;
  let cursor = 0;
  const push = (s: number, e: number) => {
    const raw = passage.text.slice(s, e);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text.length >= 20) out.push({ start: passage.startOffset + s + lead, end: passage.startOffset + s + lead + text.length, text });
  };
  for (const m of passage.text.matchAll(boundary)) {
    push(cursor, m.index);
    cursor = m.index + m[0].length;
  }
  push(cursor, passage.text.length);
  return out;
}

export function selectAnswerSentences(question: string, passages: readonly CandidatePassage[], maxSentences = 3): AnswerSentence[] {
  const stems = contentStems(question);
  if (!stems.length) return [];
  const need = stems.length <= 2 ? stems.length : Math.ceil(stems.length / 2);
  const scored: AnswerSentence[] = [];
  passages.forEach((p, rank) => {
    for (const s of sentencesOf(p)) {
      const tokens = (s.text.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => t.toLowerCase());
      const hit = stems.filter((st) => tokens.some((t) => t.startsWith(st))).length;
      if (hit >= need) scored.push({ ref: p.ref, start: s.start, end: s.end, text: s.text, score: hit / stems.length - rank * 0.01 });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.ref - b.ref || a.start - b.start);
  const chosen: AnswerSentence[] = [];
  for (const s of scored) {
    if (chosen.length >= maxSentences) break;
    if (!chosen.some((c) => c.text === s.text)) chosen.push(s);
  }
  return chosen;
}
