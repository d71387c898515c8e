import { describe, expect, it } from 'vitest';
import { fixturePools } from '../testing/defillama-fixtures.ts';
import { parsePoolsResponse, parsePoolsStream, snapshotStampOf } from './defillama-records.ts';
import { streamJsonRecords } from './json-record-stream.ts';

async function* chunked(text: string, size: number): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('streamed /pools parse', () => {
  const body = { status: 'success', _meta: { note: 'a "quoted" ] } , value', list: [1, { data: [9] }] }, data: [...fixturePools(), { pool: '', chain: 'Base' }, 'junk', null] };
  const text = JSON.stringify(body);

  it.each([1, 7, 64, 100_000])('gives the same table, rejections and stamp as the whole-body parser (chunks of %i chars)', async (size) => {
    const whole = parsePoolsResponse(body);
    const streamed = await parsePoolsStream(chunked(text, size));
    expect(streamed.rejected).toBe(whole.rejected);
    expect([...streamed.records.records()]).toEqual([...whole.records.records()]);
    expect(streamed.stamp).toEqual(snapshotStampOf(body));
  });

  it('keeps the other top-level members and reads _meta stamps', async () => {
    const withMeta = JSON.stringify({ _meta: { asOf: '2026-09-02T11:00:00Z' }, status: 'success', data: fixturePools().slice(0, 2) });
    const r = await parsePoolsStream(chunked(withMeta, 5));
    expect(r.stamp?.toISOString()).toBe('2026-09-02T11:00:00.000Z');
    expect(r.records.length).toBe(2);
    const seen: unknown[] = [];
    const { rest, streamed } = await streamJsonRecords(chunked('{"a":{"data":[1]},"data":[ {"x":"]\\"},"} , 2 ,[3]],"z":true}', 3), 'data', (v) => seen.push(v));
    expect(streamed).toBe(true);
    expect(seen).toEqual([{ x: ']"},' }, 2, [3]]);
    expect(rest).toEqual({ a: { data: [1] }, data: [], z: true });
  });

  it('wrong shapes fail with the same messages; malformed JSON is a SyntaxError', async () => {
    await expect(parsePoolsStream(chunked('{"status":"success","data":"nope"}', 4))).rejects.toThrow('pools response has no data[]');
    await expect(parsePoolsStream(chunked('[1,2]', 4))).rejects.toThrow('pools response has no data[]');
    await expect(parsePoolsStream(chunked('{"data":[{"pool":', 4))).rejects.toBeInstanceOf(SyntaxError);
    await expect(parsePoolsStream(chunked('{"data":[{"pool":}]}', 4))).rejects.toBeInstanceOf(SyntaxError);
  });
});
