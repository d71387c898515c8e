import { z } from 'zod';
import { CATEGORIES } from '../domain/category.ts';
import { parseChainKey, resolveSourceChainKey, SUPPORTED_CHAINS } from '../domain/chains.ts';
import { SORT_KEYS } from '../domain/list-yields-pipeline.ts';
import { RISK_APPETITES } from '../domain/weights.ts';

/**
 * Tool argument schemas. Every message names the offending value (seed: VALIDATION_ERROR
 * "names the value"), which is why each field carries its own error function.
 */

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'undefined' : JSON.stringify(v) ?? String(v));

function boundedNumber(field: string, min: number, max: number, int = false) {
  const msg = (iss: { input?: unknown }) => `${field} must be ${int ? 'an integer' : 'a number'} from ${min} to ${max} (got ${show(iss.input)})`;
  const base = int ? z.number({ error: msg }).int({ error: msg }) : z.number({ error: msg });
  return base.min(min, { error: msg }).max(max, { error: msg });
}

function oneOf<const T extends readonly string[]>(field: string, values: T) {
  return z.enum(values, { error: (iss) => `${field} must be one of ${values.join(' | ')} (got ${show(iss.input)})` });
}

function stringList(field: string, maxItems: number) {
  return z
    .array(z.string({ error: (iss) => `${field} entries must be strings (got ${show(iss.input)})` }), { error: (iss) => `${field} must be an array of strings (got ${show(iss.input)})` })
    .max(maxItems, { error: `${field} accepts at most ${maxItems} entries` })
    .superRefine((list, ctx) => {
      for (const v of list) if (v.trim() === '') ctx.addIssue({ code: 'custom', message: `${field} contains a blank value (${show(v)})` });
    });
}

/**
 * `chains` / `chainIds`: every entry must be a supported key. One blank or unsupported entry
 * rejects the whole list — silently dropping it would answer a different question (seed).
 */
const chainList = (field: string) =>
  z
    .array(z.string({ error: (iss) => `${field} entries must be strings (got ${show(iss.input)})` }), { error: (iss) => `${field} must be an array of chain keys (got ${show(iss.input)})` })
    .min(1, { error: `${field} must not be empty (supported: ${SUPPORTED_CHAINS.join(', ')})` })
    .superRefine((list, ctx) => {
      for (const v of list) {
        if (v.trim() === '') ctx.addIssue({ code: 'custom', message: `${field} contains a blank value ${show(v)}; supported: ${SUPPORTED_CHAINS.join(', ')}` });
        else if (!parseChainKey(v)) ctx.addIssue({ code: 'custom', message: `${field} contains unsupported chain ${show(v)}; v1 supports ${SUPPORTED_CHAINS.join(', ')} only` });
      }
    });

export const sourceChainKeySchema = z
  .string({ error: (iss) => `sourceChainKey must be a string (got ${show(iss.input)})` })
  .superRefine((v, ctx) => {
    if (!resolveSourceChainKey(v)) ctx.addIssue({ code: 'custom', message: `sourceChainKey ${show(v)} is not a supported chain key (ethereum|eth, base, arbitrum|arb); no bridge cost estimated` });
  });

const categoryList = (field: string) =>
  z.array(oneOf(`${field} entries`, CATEGORIES as readonly ['lending', 'rwa', 'other']), { error: (iss) => `${field} must be an array of lending | rwa | other (got ${show(iss.input)})` });

export const horizonFields = {
  horizonDays: boundedNumber('horizonDays', 1, 3650, true).optional(),
  notionalUsd: boundedNumber('notionalUsd', 1, 1e10).optional(),
  sourceChainKey: sourceChainKeySchema.optional(),
};

export const ListYieldsInput = z
  .object({
    chains: chainList('chains').optional(),
    chainIds: chainList('chainIds').optional(),
    assets: stringList('assets', 20).optional(),
    minTvlUsd: boundedNumber('minTvlUsd', 0, 1e12).optional(),
    limit: boundedNumber('limit', 1, 100, true).optional(),
    protocols: stringList('protocols', 50).optional(),
    ...horizonFields,
    sortBy: oneOf('sortBy', SORT_KEYS).optional(),
    sortOrder: oneOf('sortOrder', ['asc', 'desc'] as const).optional(),
    riskAppetite: oneOf('riskAppetite', RISK_APPETITES).optional(),
    minScore: boundedNumber('minScore', 0, 100).optional(),
    categories: categoryList('categories').optional(),
    excludeCategories: categoryList('excludeCategories').optional(),
    diversity: oneOf('diversity', ['soft', 'off'] as const).optional(),
    includeFactors: z.boolean({ error: (iss) => `includeFactors must be true or false (got ${show(iss.input)})` }).optional(),
    maxRewardShare: boundedNumber('maxRewardShare', 0, 1).nullable().optional(),
  })
  .strict();
export type ListYieldsArgs = z.infer<typeof ListYieldsInput>;

const idString = (field: string) =>
  z.string({ error: (iss) => `${field} must be a string (got ${show(iss.input)})` }).superRefine((v, ctx) => {
    if (v.trim() === '') ctx.addIssue({ code: 'custom', message: `${field} must not be blank (got ${show(v)})` });
  });

/** `id | opportunityId | poolId`: aliases for one key; several given must agree. */
export const OpportunityRefInput = z
  .object({ id: idString('id').optional(), opportunityId: idString('opportunityId').optional(), poolId: idString('poolId').optional(), ...horizonFields })
  .strict()
  .superRefine((v, ctx) => {
    const given = [v.id, v.opportunityId, v.poolId].filter((x): x is string => x !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', message: 'Provide one of id, opportunityId or poolId (list_yields opportunities[].id)' });
    else if (new Set(given.map((g) => g.trim())).size > 1) ctx.addIssue({ code: 'custom', message: `id aliases disagree (${given.map(show).join(' vs ')})` });
  });
export type OpportunityRefArgs = z.infer<typeof OpportunityRefInput>;

export function opportunityIdOf(args: OpportunityRefArgs): string {
  return (args.id ?? args.opportunityId ?? args.poolId)!.trim();
}

const idList = (field: string) =>
  z
    .array(idString(`${field} entries`), { error: (iss) => `${field} must be an array of 2–5 ids (got ${show(iss.input)})` })
    .min(2, { error: (iss) => `${field} needs 2–5 ids (got ${show(iss.input)})` })
    .max(5, { error: (iss) => `${field} needs 2–5 ids (got ${Array.isArray(iss.input) ? iss.input.length : show(iss.input)})` });

export const CompareInput = z
  .object({ poolIds: idList('poolIds').optional(), opportunityIds: idList('opportunityIds').optional(), horizonDays: horizonFields.horizonDays, notionalUsd: horizonFields.notionalUsd, sourceChainKey: horizonFields.sourceChainKey })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.poolIds && !v.opportunityIds) ctx.addIssue({ code: 'custom', message: 'Provide poolIds or opportunityIds (2–5 list_yields ids)' });
    else if (v.poolIds && v.opportunityIds && JSON.stringify(v.poolIds) !== JSON.stringify(v.opportunityIds)) ctx.addIssue({ code: 'custom', message: 'poolIds and opportunityIds disagree; pass one of them' });
  });
export type CompareArgs = z.infer<typeof CompareInput>;

export const ProtocolRefInput = z
  .object({ protocol: idString('protocol').optional(), protocolSlug: idString('protocolSlug').optional() })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.protocol && !v.protocolSlug) ctx.addIssue({ code: 'custom', message: 'Provide protocol or protocolSlug (list_yields opportunities[].protocolSlug)' });
    else if (v.protocol && v.protocolSlug && v.protocol.trim() !== v.protocolSlug.trim()) ctx.addIssue({ code: 'custom', message: `protocol ${show(v.protocol)} and protocolSlug ${show(v.protocolSlug)} disagree` });
  });
export type ProtocolRefArgs = z.infer<typeof ProtocolRefInput>;

export const HealthInput = z.object({}).strict();

/** The advertised schema: zod's, with the alias group stated as JSON Schema `anyOf` (provide at least one). */
export function withAliasGroup(schema: z.ZodType, aliases: readonly string[]): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, anyOf: aliases.map((a) => ({ required: [a] })) };
}
