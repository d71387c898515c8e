import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../support/test-db.ts';

/**
 * Migration 0001 moves metering from the gw_usage table onto the receipts and leaves a gw_usage
 * view. A database migrated to 0000 (set up here by undoing 0001 on a fresh one) keeps every
 * usage line it had.
 */
let db: Awaited<ReturnType<typeof openTestDb>>;
const migration = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../migrations/gateway/${name}`, import.meta.url)), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replaceAll('"public".', '').trim())
    .filter(Boolean);

beforeAll(async () => {
  db = await openTestDb();
});

afterAll(async () => {
  await db?.close();
});

describe('migration 0001 (usage in receipts)', () => {
  it('copies each old usage line onto its receipt and serves it from the gw_usage view', async () => {
    // Back to 0000's shape: the gw_usage table, receipts without metering columns.
    const createUsageTable = migration('0000_init.sql').find((s) => s.startsWith('CREATE TABLE "gw_usage"'))!;
    await db.rows(sql.raw('DROP VIEW gw_usage'));
    await db.rows(sql.raw('ALTER TABLE gw_receipts DROP COLUMN cost_micro_usdc, DROP COLUMN cached'));
    await db.rows(sql.raw(createUsageTable));
    const receipt = (id: string, prev: string) => sql`insert into gw_receipts (id, subject, task_id, upstream, tool, observed_at, cache_age_ms, input_sha256, result_sha256, runtime_state, prev_hash, receipt_hash, signature)
      values (${id}::uuid, 'old-subject', null, 'ext', 'ext_read_note', now(), 0, 'a', 'b', 'ok', ${prev}, ${`h-${id}`}, 'sig')`;
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    await db.rows(receipt(ids[0]!, '0'));
    await db.rows(receipt(ids[1]!, `h-${ids[0]}`));
    await db.rows(sql`insert into gw_usage (subject, upstream, tool, cost_micro_usdc, cached, receipt_id) values ('old-subject', 'ext', 'ext_read_note', 5000, false, ${ids[0]}::uuid), ('old-subject', 'ext', 'ext_read_note', 0, true, ${ids[1]}::uuid)`);

    for (const statement of migration('0001_usage-in-receipts.sql')) await db.rows(sql.raw(statement));

    const lines = await db.rows<{ receipt_id: string; cost_micro_usdc: string | number; cached: boolean }>(sql`select receipt_id, cost_micro_usdc, cached from gw_usage where subject = 'old-subject' order by receipt_id`);
    expect(lines.map((l) => [l.receipt_id, Number(l.cost_micro_usdc), l.cached])).toEqual([
      [ids[0], 5000, false],
      [ids[1], 0, true],
    ]);
  });
});
