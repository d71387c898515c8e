import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamProtocolError } from './upstream-errors.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields each content block type must carry (MCP schema, `ContentBlock`). */
const REQUIRED_STRINGS: Record<string, readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/**
 * An upstream's `tools/call` result, checked by hand instead of with the SDK's zod schema: the
 * gateway's own server validates the whole answer against `CallToolResultSchema` on the way
 * out anyway, so parsing every upstream result a second time with zod only cost CPU on the hot
 * path. This checks what the gateway itself relies on — that content is a list of typed blocks
 * and structured content an object — so a malformed answer is an upstream failure with a
 * receipt, not a protocol error after the receipt was written.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (!isObject(value)) throw new UpstreamProtocolError('tools/call result is not an object');
  const content = value.content ?? [];
  if (!Array.isArray(content)) throw new UpstreamProtocolError('tools/call result: content is not a list');
  for (const block of content) {
    if (!isObject(block) || typeof block.type !== 'string') throw new UpstreamProtocolError('tools/call result: a content block has no type');
    const required = REQUIRED_STRINGS[block.type];
    if (!required) throw new UpstreamProtocolError(`tools/call result: unknown content block type ${block.type.slice(0, 40)}`);
    for (const field of required) if (typeof block[field] !== 'string') throw new UpstreamProtocolError(`tools/call result: a ${block.type} block has no ${field}`);
    if (block.type === 'resource' && !isObject(block.resource)) throw new UpstreamProtocolError('tools/call result: a resource block has no resource');
  }
  if (value.structuredContent !== undefined && !isObject(value.structuredContent)) throw new UpstreamProtocolError('tools/call result: structuredContent is not an object');
  if (value.isError !== undefined && typeof value.isError !== 'boolean') throw new UpstreamProtocolError('tools/call result: isError is not a boolean');
  return { ...value, content } as CallToolResult;
}
