import { z } from 'zod';

export const ModeSchema = z
  .enum(['exact', 'phrase', 'fuzzy'])
  .optional()
  .describe('exact (default): case-insensitive whole tokens, no stemming. phrase: English stemming, OR, -negation (document level). fuzzy: substring inside words; never a finding.');

export const ScopeArgs = {
  rooms: z.array(z.string().min(1).max(200)).max(50).optional().describe('Room ids or names to search (default: every room you can access).'),
  files: z.array(z.string().min(1).max(100)).max(200).optional().describe('DOC:/FILE:/KG: ids to restrict to.'),
};

export const QuerySchema = z.string().min(1).max(500);

const ScopeOut = z.object({ rooms: z.array(z.object({ id: z.string(), name: z.string() })), files: z.union([z.array(z.string()), z.literal('all')]) });
export const SourceOut = z.looseObject({});

/** The shared head of count / enumerate / count_in_set answers. */
export const CountHeadOut = {
  query: z.string(),
  mode: z.enum(['exact', 'phrase', 'fuzzy']),
  occurrences: z.number().int(),
  documents: z.number().int(),
  parsed: z.looseObject({}),
  finding: z.boolean().describe('false for fuzzy counts: an indication, never a finding'),
};
export { ScopeOut };
