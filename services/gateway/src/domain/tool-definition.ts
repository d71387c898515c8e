import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

/** The parts of a tool that can steer a model: everything an upstream could rewrite to poison it. */
export interface PinnedDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export function pinnedDefinitionOf(tool: Tool): PinnedDefinition {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

/** SHA-256 over the canonical JSON of the full definition (name, description, schemas, annotations). */
export function definitionSha256(definition: PinnedDefinition): string {
  return sha256Hex(canonicalJson(definition));
}

/** What to do with a freshly listed definition, given what the registry pinned before. */
export type PinDecision =
  | { action: 'insert' }
  | { action: 'unchanged' }
  | { action: 'quarantine'; pendingSha256: string }
  | { action: 'restore' };

/**
 * Trust on first use, then pin: a new tool is admitted with its hash pinned; a definition whose
 * hash differs from the pinned one is quarantined (hidden and refused) until an admin approves
 * it, so an upstream cannot silently rewrite a tool's instructions (the "rug pull"). If the
 * upstream reverts to the pinned definition the quarantine lifts by itself.
 */
export function decidePin(pinned: { sha256: string; status: string } | undefined, seenSha256: string): PinDecision {
  if (!pinned) return { action: 'insert' };
  if (pinned.sha256 === seenSha256) return pinned.status === 'active' ? { action: 'unchanged' } : { action: 'restore' };
  return { action: 'quarantine', pendingSha256: seenSha256 };
}

/** Read-only per MCP `readOnlyHint`; absent means "may write", the spec's default. */
export function isReadOnly(definition: PinnedDefinition): boolean {
  return (definition.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint === true;
}
