import type { PeggedAssetRecord, ProtocolRecord, SourceName } from '../domain/market-snapshot.ts';
import type { PoolTable } from '../domain/pool-table.ts';
import { parsePoolsStream, parseProtocolsResponse, parseStablecoinsResponse, snapshotStampOf, UpstreamShapeError, type ParsedRecords } from './defillama-records.ts';
import { textChunks } from './json-record-stream.ts';

type Parsed<T> = ParsedRecords<T> & { readonly stamp: Date | null };

/** Small feeds: the whole body, then the parser. */
function wholeBody<T>(parse: (body: unknown) => ParsedRecords<T>) {
  return async (res: Response): Promise<Parsed<T>> => {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new SyntaxError('response is not JSON');
    }
    return { ...parse(body), stamp: snapshotStampOf(body) };
  };
}

/** `/pools` (the big one): streamed record by record into the pool table. */
async function streamedPools(res: Response): Promise<Parsed<PoolTable>> {
  if (!res.body) throw new SyntaxError('response is not JSON');
  return parsePoolsStream(textChunks(res.body as AsyncIterable<Uint8Array>));
}

export interface DefillamaClientOptions {
  readonly yieldsUrl: string;
  readonly stablecoinsUrl: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
}

export interface FetchedSource<R extends { readonly length: number }> {
  readonly records: R;
  readonly rejected: number;
  /** Last-Modified of the static file DefiLlama serves (its enrichment time), else the body's own stamp, else the fetch time. */
  readonly asOf: Date;
}

export class UpstreamFetchError extends Error {
  override name = 'UpstreamFetchError';
  constructor(
    readonly source: SourceName,
    readonly reason: string,
  ) {
    super(`${source}: ${reason}`);
  }
}

export interface DefillamaClient {
  fetchPools(): Promise<FetchedSource<PoolTable>>;
  fetchPegs(): Promise<FetchedSource<PeggedAssetRecord[]>>;
  fetchProtocols(): Promise<FetchedSource<ProtocolRecord[]>>;
}

/** The three DefiLlama adapters, with `fetch` and the clock injected so tests point them at a local server. */
export function createDefillamaClient(options: DefillamaClientOptions): DefillamaClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());

  async function getJson<T extends { readonly length: number }>(source: SourceName, url: string, read: (res: Response) => Promise<Parsed<T>>): Promise<FetchedSource<T>> {
    let res: Response;
    try {
      res = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (err) {
      throw new UpstreamFetchError(source, err instanceof Error ? err.message : 'network error');
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new UpstreamFetchError(source, `HTTP ${res.status}`);
    }
    let parsed: Parsed<T>;
    try {
      parsed = await read(res);
    } catch (err) {
      // Shape errors name what is missing; anything else (bad JSON, a body cut short) is "not JSON".
      throw new UpstreamFetchError(source, err instanceof UpstreamShapeError ? err.message : 'response is not JSON');
    }
    if (parsed.records.length === 0) throw new UpstreamFetchError(source, 'response holds no usable records');
    const lastModified = res.headers.get('last-modified');
    const fromHeader = lastModified ? new Date(lastModified) : null;
    const asOf = fromHeader && !Number.isNaN(fromHeader.getTime()) ? fromHeader : (parsed.stamp ?? now());
    return { records: parsed.records, rejected: parsed.rejected, asOf };
  }

  return {
    fetchPools: () => getJson('defillama:yields', `${options.yieldsUrl}/pools`, streamedPools),
    fetchPegs: () => getJson('defillama:pegs', `${options.stablecoinsUrl}/stablecoins?includePrices=true`, wholeBody(parseStablecoinsResponse)),
    fetchProtocols: () => getJson('defillama:protocols', `${options.apiUrl}/protocols`, wholeBody(parseProtocolsResponse)),
  };
}
