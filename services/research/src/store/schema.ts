import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The last good snapshot of each upstream source (`defillama:yields`, `defillama:pegs`,
 * `defillama:protocols`). One row per source, replaced on every successful fetch or import, so a
 * restart, a failed fetch or a sibling replica serves the same data instead of nothing.
 */
export const researchSnapshots = pgTable('research_snapshots', {
  source: text('source').primaryKey(),
  /** Data vintage: when upstream produced the data (Last-Modified, or the file's own stamp). */
  asOf: timestamp('as_of', { withTimezone: true, mode: 'date' }),
  /** When we obtained it (fetch or import). */
  fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** `fetch` or `import`. */
  origin: text('origin').notNull(),
  recordCount: integer('record_count').notNull(),
  /** The raw API response shape, trimmed to the fields this server reads. */
  payload: jsonb('payload').notNull(),
});
