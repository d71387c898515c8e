import type { PeggedAssetRecord, PoolRecord, ProtocolRecord, SourceName } from '../domain/market-snapshot.ts';
import { parsePoolsResponse, parseProtocolsResponse, parseStablecoinsResponse, snapshotStampOf, type ParsedRecords } from './defillama-records.ts';

export interface DefillamaClientOptions {
  readonly yieldsUrl: string;
  readonly stablecoinsUrl: string;
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
}

export interface FetchedSource<T> {
  readonly records: T[];
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
  fetchPools(): Promise<FetchedSource<PoolRecord>>;
  fetchPegs(): Promise<FetchedSource<PeggedAssetRecord>>;
  fetchProtocols(): Promise<FetchedSource<ProtocolRecord>>;
}

/** The three DefiLlama adapters, with `fetch` and the clock injected so tests point them at a local server. */
export function createDefillamaClient(options: DefillamaClientOptions): DefillamaClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());

  async function getJson<T>(source: SourceName, url: string, parse: (body: unknown) => ParsedRecords<T>): Promise<FetchedSource<T>> {
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
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new UpstreamFetchError(source, 'response is not JSON');
    }
    let parsed: ParsedRecords<T>;
    try {
      parsed = parse(body);
    } catch (err) {
      throw new UpstreamFetchError(source, err instanceof Error ? err.message : 'unexpected shape');
    }
    if (parsed.records.length === 0) throw new UpstreamFetchError(source, 'response holds no usable records');
    const lastModified = res.headers.get('last-modified');
    const fromHeader = lastModified ? new Date(lastModified) : null;
    const asOf = fromHeader && !Number.isNaN(fromHeader.getTime()) ? fromHeader : (snapshotStampOf(body) ?? now());
    return { records: parsed.records, rejected: parsed.rejected, asOf };
  }

  return {
    fetchPools: () => getJson('defillama:yields', `${options.yieldsUrl}/pools`, parsePoolsResponse),
    fetchPegs: () => getJson('defillama:pegs', `${options.stablecoinsUrl}/stablecoins?includePrices=true`, parseStablecoinsResponse),
    fetchProtocols: () => getJson('defillama:protocols', `${options.apiUrl}/protocols`, parseProtocolsResponse),
  };
}
