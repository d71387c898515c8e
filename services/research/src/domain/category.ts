/** The seed's normalised category: the practical RWA flag is `category === "rwa"`. */
export type NormalizedCategory = 'lending' | 'rwa' | 'other';
export const CATEGORIES: readonly NormalizedCategory[] = ['lending', 'rwa', 'other'];

const LENDING_RAW = new Set(['lending', 'cdp']);

/** Maple's syrup USD* wrappers lend to institutions: credit, not blue-chip lending (seed "Category / RWA"). */
const MAPLE_SYRUP = /syrup\s*usd/i;

export interface CategoryInput {
  readonly project: string;
  readonly symbol: string;
  readonly poolMeta: string | null;
  /** Upstream label (DefiLlama protocols `category`), kept as `categoryRaw`. */
  readonly categoryRaw: string | null;
  readonly override: NormalizedCategory | null | undefined;
}

export function normalizeCategory(input: CategoryInput): NormalizedCategory {
  if (input.project === 'maple' && (MAPLE_SYRUP.test(input.poolMeta ?? '') || MAPLE_SYRUP.test(input.symbol))) return 'rwa';
  if (input.override) return input.override;
  const raw = (input.categoryRaw ?? '').trim().toLowerCase();
  if (raw.startsWith('rwa')) return 'rwa';
  if (LENDING_RAW.has(raw)) return 'lending';
  return 'other';
}
