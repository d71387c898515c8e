/**
 * The receipt INSERT on its own: ours (insertReceiptsWithUsage — the whole batch as one JSON
 * parameter unpacked by json_to_recordset) against the multi-row VALUES statement it replaced
 * (15 parameters a row), same rows, same database, one run. CPU per stored row is what the
 * gateway's thread pays on PGlite; on Postgres it is the client's share only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPrepared } from '../../shared/db/prepared-statement.ts';
import { insertReceiptsWithUsage, type UsageLine, type WrittenReceiptRow } from '../../services/gateway/src/store/receipt-store.ts';
import { openTestDb } from '../../test/support/test-db.ts';

const COLUMNS = 'id, subject, task_id, upstream, tool, observed_at, cache_age_ms, input_sha256, result_sha256, runtime_state, prev_hash, receipt_hash, signature, cost_micro_usdc, cached';
const TYPES = ['uuid', 'text', 'text', 'text', 'text', 'timestamptz', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'boolean'];
const valuesInsert = (rows: number) =>
  `insert into gw_receipts (${COLUMNS}) values ${Array.from({ length: rows }, (_, r) => `(${TYPES.map((t, c) => `$${r * TYPES.length + c + 1}::${t}`).join(', ')})`).join(', ')}`;

type Item = { receipt: WrittenReceiptRow; usage: UsageLine };

function receiptChain(n: number): Item[] {
  const subject = `bench-${randomUUID()}`;
  let prev = '0'.repeat(64);
  return Array.from({ length: n }, () => {
    const hash = randomBytes(32).toString('hex');
    const receipt: WrittenReceiptRow = {
      receipt_id: randomUUID(), subject, task_id: null, upstream: 'ext', tool: 'ext_read_note', observed_at: new Date().toISOString(), cache_age_ms: 0,
      input_sha256: randomBytes(32).toString('hex'), result_sha256: randomBytes(32).toString('hex'), runtime_state: 'ok', prev_hash: prev, receipt_hash: hash,
      signature: `eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.${randomBytes(48).toString('base64url')}.${randomBytes(64).toString('base64url')}`,
    };
    prev = hash;
    return { receipt, usage: { costMicroUsdc: 5000, cached: false } };
  });
}

export async function benchReceiptInsert(rowsPerCell = 2048, batchSizes = [1, 32, 128]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-receipt-insert-'));
  const db = await openTestDb(process.env.DATABASE_URL ? {} : { pgliteDataDir: dir });
  try {
    const ways: Record<'ours' | 'baseline', (batch: Item[]) => Promise<unknown>> = {
      ours: (batch) => insertReceiptsWithUsage(db, batch),
      baseline: (batch) =>
        runPrepared(db.db, valuesInsert(batch.length), batch.flatMap(({ receipt: r, usage: u }) => [
          r.receipt_id, r.subject, r.task_id, r.upstream, r.tool, r.observed_at, r.cache_age_ms, r.input_sha256, r.result_sha256, r.runtime_state, r.prev_hash, r.receipt_hash, r.signature, u.costMicroUsdc, u.cached,
        ])),
    };
    const measure = async (way: keyof typeof ways, size: number) => {
      const batches = Array.from({ length: Math.max(1, Math.round(rowsPerCell / size)) }, () => receiptChain(size));
      for (const warm of Array.from({ length: 3 }, () => receiptChain(size))) await ways[way](warm);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (const batch of batches) await ways[way](batch);
      const cpu = process.cpuUsage(cpu0);
      const rows = batches.length * size;
      return { cpuUs: (cpu.user + cpu.system) / rows, wallUs: ((performance.now() - t0) * 1000) / rows };
    };
    console.log(`\nReceipt INSERT on ${db.kind} (${rowsPerCell} rows per cell; CPU and wall µs per stored row; ${db.kind === 'postgres' ? "client CPU only, the server's is not counted" : 'all of it in this thread'})\n`);
    console.log('| rows per INSERT | multi-row VALUES CPU / wall | one JSON parameter (ours) CPU / wall | CPU ratio, VALUES / ours |');
    console.log('| ---: | ---: | ---: | ---: |');
    for (const size of batchSizes) {
      const baseline = await measure('baseline', size);
      const ours = await measure('ours', size);
      console.log(`| ${size} | ${baseline.cpuUs.toFixed(1)} / ${baseline.wallUs.toFixed(1)} | ${ours.cpuUs.toFixed(1)} / ${ours.wallUs.toFixed(1)} | ${(baseline.cpuUs / ours.cpuUs).toFixed(2)} |`);
    }
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
