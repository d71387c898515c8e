/**
 * Seed 004's `toOpenAITools`: a caller's tools in OpenAI function-calling format. OpenAI wants
 * `parameters` to be an object schema, so a missing or non-object schema becomes an empty one.
 */
export interface ExportableTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface OpenAiTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> };
}

export function toOpenAiTools(tools: readonly ExportableTool[]): OpenAiTool[] {
  return tools.map((t) => ({
    type: 'function' as const,
    function: {
      name: t.name,
      description: t.description.slice(0, 1024),
      parameters: t.inputSchema?.type === 'object' ? t.inputSchema : { type: 'object', properties: {} },
    },
  }));
}
