import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './call-tool-result.ts';
import { UpstreamProtocolError } from './upstream-errors.ts';

describe('toCallToolResult (an upstream tools/call result, checked without zod)', () => {
  it('accepts well-formed results and defaults a missing content list', () => {
    expect(toCallToolResult({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, isError: false })).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, isError: false });
    expect(toCallToolResult({ structuredContent: { a: 1 } })).toEqual({ content: [], structuredContent: { a: 1 } });
    const blocks = [
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a', name: 'a' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    ];
    expect(toCallToolResult({ content: blocks }).content).toEqual(blocks);
  });

  it.each([
    ['not an object', 'nope'],
    ['content not a list', { content: 'text' }],
    ['a block without type', { content: [{ text: 'x' }] }],
    ['an unknown block type', { content: [{ type: 'video', url: 'x' }] }],
    ['a text block without text', { content: [{ type: 'text' }] }],
    ['an image block without mimeType', { content: [{ type: 'image', data: 'AAAA' }] }],
    ['a resource block without resource', { content: [{ type: 'resource' }] }],
    ['structuredContent not an object', { content: [], structuredContent: [1, 2] }],
    ['isError not a boolean', { content: [], isError: 'yes' }],
  ])('refuses %s as an upstream protocol error', (_label, value) => {
    expect(() => toCallToolResult(value)).toThrow(UpstreamProtocolError);
  });
});
