import { describe, expect, it } from 'vitest';
import { literalPatternJs, parseCountQuery, QueryParseError } from './count-query.ts';
import { createCursorCodec } from './cursor.ts';
import { chunkText } from './chunk-text.ts';
import { normaliseText } from './normalise-text.ts';

describe('parseCountQuery', () => {
  it('phrase: OR separates alternatives and -terms / -"phrases" are exclusions', () => {
    expect(parseCountQuery('interest rate OR "applicable margin" -LIBOR -"base rate"', 'phrase')).toMatchObject({
      alternatives: ['interest rate', 'applicable margin'],
      excluded: ['LIBOR', 'base rate'],
    });
  });
  it.each([[''], ['   '], ['-LIBOR']])('refuses %j in phrase mode', (q) => {
    expect(() => parseCountQuery(q, 'phrase')).toThrow(QueryParseError);
  });
});

describe('literalPatternJs (exact whole tokens)', () => {
  const count = (q: string, text: string) => [...text.matchAll(literalPatternJs(parseCountQuery(q) as never))].length;
  it.each([
    ['2.5.3', 'Section 2.5.3. and 2.5.3.1 and 12.5.3 and (2.5.3)', 2],
    ['87512QAJ9', '87512QAJ9 87512QAJ90 X87512QAJ9', 1],
    ['borrower', "Borrower's Co-Borrower Borrowers BORROWER", 2],
    ['interest rate', 'interest\nrate, interest  rate, interest\n\nrate', 2],
  ])('%s', (q, text, n) => expect(count(q, text)).toBe(n));
});

describe('createCursorCodec', () => {
  const codec = createCursorCodec(Buffer.alloc(32, 7));
  const binding = { tool: 'files', subject: 'u1', args: { rooms: ['a'] } };
  it('reads back its own cursor and refuses any other binding or edit', () => {
    const c = codec.issue(binding, 40);
    expect(codec.read(binding, c)).toBe(40);
    expect(codec.read({ ...binding, subject: 'u2' }, c)).toBeUndefined();
    expect(codec.read({ ...binding, tool: 'sets' }, c)).toBeUndefined();
    expect(codec.read({ ...binding, args: { rooms: ['b'] } }, c)).toBeUndefined();
    expect(codec.read(binding, `${c}x`)).toBeUndefined();
  });
  it('refuses another spelling of the same tag (the last base64url character\'s unused bits)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const c = codec.issue(binding, 40);
    const respelled = `${c.slice(0, -1)}${alphabet[alphabet.indexOf(c.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).toEqual(Buffer.from(c.split('.')[1]!, 'base64url'));
    expect(codec.read(binding, respelled)).toBeUndefined();
  });
});

describe('normaliseText + chunkText', () => {
  it('keeps offsets exact: every chunk is a slice of the normalised text', () => {
    const doc = normaliseText('A\u00a0b \u201cq\u201d\r\n\r\nPara two.\n' + 'Long sentence here. '.repeat(200));
    expect(doc.startsWith('A b "q"\n\nPara two.')).toBe(true);
    const chunks = chunkText(doc);
    for (const c of chunks) {
      expect(doc.slice(c.startOffset, c.endOffset)).toBe(c.text);
      expect(c.text.length).toBeLessThanOrEqual(1500);
    }
  });
});
