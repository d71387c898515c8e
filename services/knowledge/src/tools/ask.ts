import { z } from 'zod';
import { selectAnswerSentences } from '../domain/extractive-answer.ts';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { ScopeArgs } from './match-args.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const PASSAGES = 8;
const Input = z.object({ question: z.string().min(1).max(1000), ...ScopeArgs }).strict();
const Citation = z.looseObject({ ref: z.number().int(), doc_id: z.string(), start: z.number().int(), end: z.number().int(), source: z.looseObject({}) });
const Output = z.object({
  question: z.string(),
  supported: z.boolean(),
  answer: z.string().nullable(),
  sentences: z.array(z.object({ ref: z.number().int(), text: z.string(), start: z.number().int(), end: z.number().int() })),
  citations: z.array(Citation),
  note: z.string(),
});

/**
 * Extractive only: no model provider is wired in, so every word of `answer` is a quoted corpus
 * sentence followed by its citation marker.
 */
export function createAskTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'ask',
    title: 'Grounded answer',
    description:
      'Answers a question with sentences quoted from the best passages in your rooms, each with a citation (kg, room, DOC: id, offsets). Says plainly when nothing supports an answer. Ranked, not exhaustive.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms, input.files);
      const rows = await deps.store.search.passages(input.question, 'any', scope.match, PASSAGES, 0, 4000);
      const sentences = selectAnswerSentences(
        input.question,
        rows.map((r, i) => ({ ref: i + 1, startOffset: r.startOffset, text: r.text })),
      );
      const usedRefs = [...new Set(sentences.map((s) => s.ref))];
      const renumber = new Map(usedRefs.map((ref, i) => [ref, i + 1]));
      const citations = sentences.map((s) => {
        const r = rows[s.ref - 1];
        return { ref: renumber.get(s.ref)!, doc_id: docId(r.documentId), name: r.name, start: s.start, end: s.end, source: roomSource(r.documentId, r.roomId, r.roomName) };
      });
      const out = sentences.map((s) => ({ ref: renumber.get(s.ref)!, text: s.text, start: s.start, end: s.end }));
      if (!out.length) {
        return {
          question: input.question,
          supported: false,
          answer: null,
          sentences: [],
          citations: [],
          note: 'Nothing in the rooms you can access supports an answer to this question (ranked retrieval: this is not proof of absence; use count to establish that).',
        };
      }
      return {
        question: input.question,
        supported: true,
        answer: out.map((s) => `"${s.text}" [${s.ref}]`).join(' '),
        sentences: out,
        citations,
        note: 'Extractive answer: every sentence is quoted verbatim from the cited span.',
      };
    },
  });
}
