import { z } from 'zod';
import type { PeggedAssetRecord, PoolRecord, ProtocolRecord } from '../domain/market-snapshot.ts';
import { PoolTableBuilder, type PoolTable } from '../domain/pool-table.ts';
import { streamJsonRecords } from './json-record-stream.ts';

/**
 * zod at the upstream edge: the three DefiLlama response shapes, validated leniently per record.
 * A record that fails is dropped (and counted) rather than failing the whole snapshot, because one
 * malformed pool among 20,000 must not take the research server down.
 */

const num = z.number().finite().nullable().optional().transform((v) => v ?? null);
const str = z.string().nullable().optional().transform((v) => v ?? null);

const PoolSchema = z.object({
  pool: z.string().min(1),
  chain: z.string().min(1),
  project: z.string().min(1),
  symbol: z.string(),
  tvlUsd: num,
  apyBase: num,
  apyReward: num,
  apy: num,
  apyPct1D: num,
  apyPct7D: num,
  apyMean30d: num,
  stablecoin: z.boolean().nullable().optional().transform((v) => v ?? false),
  ilRisk: str,
  exposure: str,
  poolMeta: str,
  outlier: z.boolean().nullable().optional().transform((v) => v ?? null),
  sigma: num,
  predictions: z
    .object({ predictedClass: str, binnedConfidence: num })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});

const PeggedAssetSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  symbol: z.string(),
  pegType: str,
  pegMechanism: str,
  price: z.number().finite().nullable().optional().transform((v) => v ?? null),
  circulating: z.record(z.string(), z.number()).nullable().optional(),
  yieldBearing: z.boolean().optional(),
  deprecated: z.boolean().optional(),
});

const ProtocolSchema = z.object({
  slug: z.string().min(1),
  name: z.string(),
  category: str,
  audits: z.union([z.string(), z.number()]).nullable().optional().transform((v) => (v === null || v === undefined ? null : String(v))),
  listedAt: num,
  tvl: num,
  change_1d: num,
  change_7d: num,
  url: str,
  chains: z.array(z.string()).optional().transform((v) => v ?? []),
  rugged: z.boolean().nullable().optional().transform((v) => v ?? false),
});

export interface ParsedRecords<R> {
  readonly records: R;
  readonly rejected: number;
}

function parseEach<S extends z.ZodType, T>(items: unknown[], schema: S, map: (v: z.output<S>) => T): ParsedRecords<T[]> {
  const records: T[] = [];
  let rejected = 0;
  for (const item of items) {
    const r = schema.safeParse(item);
    if (r.success) records.push(map(r.data));
    else rejected++;
  }
  return { records, rejected };
}

export class UpstreamShapeError extends Error {
  override name = 'UpstreamShapeError';
}

/**
 * `GET /pools` → `{status:"success", data:[Pool…]}`, straight into the compact PoolTable: each
 * record is validated and copied into the columns one at a time, so no second full object copy
 * of the snapshot is ever built (the caller's parsed body is the only one, and it is garbage as
 * soon as the caller lets go of it).
 */
export function parsePoolsResponse(body: unknown): ParsedRecords<PoolTable> {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw new UpstreamShapeError('pools response has no data[]');
  const table = new PoolTableBuilder();
  let rejected = 0;
  for (const item of data) {
    const r = PoolSchema.safeParse(item);
    if (r.success) table.add(r.data as PoolRecord);
    else rejected++;
  }
  return { records: table.finish(), rejected };
}

/**
 * `GET /pools` read as a stream: each pool is validated and copied into the table as its text
 * arrives, so neither the ~15 MB body nor its parsed tree is ever whole in memory. Same result,
 * same rejections and same errors as `parsePoolsResponse` on the parsed body; `stamp` is what
 * `snapshotStampOf` would say about that body.
 */
export async function parsePoolsStream(chunks: AsyncIterable<string>): Promise<ParsedRecords<PoolTable> & { stamp: Date | null }> {
  const table = new PoolTableBuilder();
  let rejected = 0;
  let seen = 0;
  let newest: number | null = null;
  const { rest, streamed } = await streamJsonRecords(chunks, 'data', (item) => {
    if (seen++ < STAMP_SCAN_ITEMS) newest = newerStamp(newest, item);
    const r = PoolSchema.safeParse(item);
    if (r.success) table.add(r.data as PoolRecord);
    else rejected++;
  });
  if (!streamed) return { ...parsePoolsResponse(rest), stamp: snapshotStampOf(rest) };
  return { records: table.finish(), rejected, stamp: metaStampOf(rest) ?? (newest === null ? null : new Date(newest)) };
}

/** `GET /stablecoins?includePrices=true` → `{peggedAssets:[…]}`. */
export function parseStablecoinsResponse(body: unknown): ParsedRecords<PeggedAssetRecord[]> {
  const assets = (body as { peggedAssets?: unknown })?.peggedAssets;
  if (!Array.isArray(assets)) throw new UpstreamShapeError('stablecoins response has no peggedAssets[]');
  return parseEach(assets, PeggedAssetSchema, (a) => ({
    id: a.id,
    name: a.name,
    symbol: a.symbol,
    pegType: a.pegType,
    pegMechanism: a.pegMechanism,
    price: a.price,
    circulatingUsd: a.circulating ? (Object.values(a.circulating)[0] ?? null) : null,
    yieldBearing: a.yieldBearing === true,
    deprecated: a.deprecated === true,
  }));
}

/** `GET /protocols` → `[Protocol…]`. */
export function parseProtocolsResponse(body: unknown): ParsedRecords<ProtocolRecord[]> {
  const list = Array.isArray(body) ? body : (body as { protocols?: unknown })?.protocols;
  if (!Array.isArray(list)) throw new UpstreamShapeError('protocols response is not an array');
  return parseEach(list, ProtocolSchema, (p) => p as ProtocolRecord);
}

/** Back to the raw API shapes, for `research export` (persistence uses `PoolTable.toResponseJson`). */
export function poolsResponse(records: PoolTable) {
  return { status: 'success', data: [...records.records()] };
}
export function stablecoinsResponse(records: readonly PeggedAssetRecord[]) {
  return {
    peggedAssets: records.map((a) => ({
      id: a.id,
      name: a.name,
      symbol: a.symbol,
      pegType: a.pegType,
      pegMechanism: a.pegMechanism,
      price: a.price,
      circulating: a.circulatingUsd === null ? {} : { [a.pegType ?? 'peggedUSD']: a.circulatingUsd },
      ...(a.yieldBearing ? { yieldBearing: true } : {}),
      ...(a.deprecated ? { deprecated: true } : {}),
    })),
  };
}
export function protocolsResponse(records: readonly ProtocolRecord[]) {
  return records;
}

/**
 * The vintage a snapshot file carries about itself: `_meta.asOf` / `_meta.scrapedAt`, else the
 * newest per-record `timestamp`/`scrapedAt`. Null when the file says nothing (age then stays null).
 */
export function snapshotStampOf(body: unknown): Date | null {
  const fromMeta = metaStampOf(body);
  if (fromMeta) return fromMeta;
  const items = Array.isArray(body)
    ? body
    : ((body as { data?: unknown[] })?.data ?? (body as { peggedAssets?: unknown[] })?.peggedAssets ?? (body as { protocols?: unknown[] })?.protocols);
  if (!Array.isArray(items)) return null;
  let newest: number | null = null;
  for (const item of items.slice(0, STAMP_SCAN_ITEMS)) newest = newerStamp(newest, item);
  return newest === null ? null : new Date(newest);
}

const STAMP_SCAN_ITEMS = 1000;

function metaStampOf(body: unknown): Date | null {
  const meta = (body as { _meta?: Record<string, unknown> })?._meta;
  for (const key of ['asOf', 'scrapedAt', 'fetchedAt']) {
    const v = meta?.[key];
    if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(v);
  }
  return null;
}

function newerStamp(newest: number | null, item: unknown): number | null {
  const stamp = (item as Record<string, unknown>)?.timestamp ?? (item as Record<string, unknown>)?.scrapedAt;
  const t = typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return !Number.isNaN(t) && (newest === null || t > newest) ? t : newest;
}
