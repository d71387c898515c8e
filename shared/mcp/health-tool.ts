import { z } from 'zod';
import { defineTool } from './tool.ts';
import { jsonToolResult } from './tool-result.ts';

const HealthOutput = z.object({ status: z.literal('ok'), service: z.string(), version: z.string(), time: z.string() });

/** The minimal `health` tool every server starts with; services may replace it with a richer one. */
export function createHealthTool(service: string, version: string, now: () => Date = () => new Date()) {
  return defineTool({
    name: 'health',
    description: `Liveness of the ${service} MCP server. Takes no arguments.`,
    inputSchema: z.object({}).strict(),
    outputSchema: HealthOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async () => jsonToolResult({ status: 'ok', service, version, time: now().toISOString() }),
  });
}
