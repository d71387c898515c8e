import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { NormalizedCategory } from './category.ts';

/** Curated priors (audits, age, incidents, knownIssues, category overrides), versioned as data files. */
const IncidentSchema = z.object({ date: z.string(), summary: z.string(), lossUsd: z.number().nullable().optional() });
const PriorSchema = z.object({
  name: z.string(),
  audits: z.number().int().min(0).optional(),
  launchedAt: z.string().optional(),
  incidents: z.array(IncidentSchema).default([]),
  knownIssues: z.array(z.string()).default([]),
  categoryOverride: z.enum(['lending', 'rwa', 'other']).nullable().optional(),
  scoreAdjustment: z.number().min(-20).max(10).default(0),
});
const PriorsFileSchema = z.object({ version: z.string(), updatedAt: z.string(), protocols: z.record(z.string(), PriorSchema) });

export interface ProtocolPrior {
  readonly name: string;
  readonly audits?: number;
  readonly launchedAt?: string;
  readonly incidents: readonly { date: string; summary: string; lossUsd?: number | null }[];
  readonly knownIssues: readonly string[];
  readonly categoryOverride?: NormalizedCategory | null;
  readonly scoreAdjustment: number;
}

export interface ProtocolPriors {
  readonly version: string;
  get(slug: string): ProtocolPrior | undefined;
  slugs(): string[];
}

export function parseProtocolPriors(json: unknown): ProtocolPriors {
  const file = PriorsFileSchema.parse(json);
  const map = new Map(Object.entries(file.protocols));
  return { version: file.version, get: (slug) => map.get(slug), slugs: () => [...map.keys()] };
}

export const PROTOCOL_PRIORS_FILE = new URL('../../data/protocol-priors.v1.json', import.meta.url);

/** Read once at boot; a malformed priors file fails the start, not a request. */
export function loadProtocolPriors(file: URL = PROTOCOL_PRIORS_FILE): ProtocolPriors {
  return parseProtocolPriors(JSON.parse(readFileSync(file, 'utf8')));
}
