import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeZodError } from '../../../../shared/mcp/tool-server.ts';
import { failureEnvelope } from './envelope.ts';

/**
 * The tool server's schema-failure hook: the seed's VALIDATION_ERROR envelope, naming the value.
 * Its own module because it needs the tool server (and with it the MCP SDK), which the tools
 * themselves do not: `list_yields` and friends load without the SDK runtime.
 */
export function validationFailure(_tool: string, error: z.ZodError): CallToolResult {
  return failureEnvelope(randomUUID(), 'VALIDATION_ERROR', describeZodError(error), new Date());
}
