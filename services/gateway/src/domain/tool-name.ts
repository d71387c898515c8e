import { sha256Hex } from './canonical-json.ts';

/** Many clients (OpenAI function calling among them) refuse tool names longer than this. */
export const MAX_TOOL_NAME_LENGTH = 48;

/**
 * The advertised name of an upstream tool: `<prefix>_<tool>`, restricted to `[A-Za-z0-9_-]`.
 * It depends only on (upstream prefix, tool name) — never on what else is registered — so a
 * name an agent learned yesterday still means the same tool after another upstream is added.
 * Names that would exceed 48 characters (or that needed characters replaced) end in a short
 * hash of the original pair, so two long names sharing a stem cannot collide.
 */
export function advertisedToolName(prefix: string, tool: string): string {
  const cleaned = tool.replace(/[^A-Za-z0-9_-]+/g, '_');
  const plain = `${prefix}_${cleaned}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && cleaned === tool) return plain;
  const digest = sha256Hex(`${prefix}\u0000${tool}`).slice(0, 8);
  const room = MAX_TOOL_NAME_LENGTH - prefix.length - 2 - digest.length;
  return `${prefix}_${cleaned.slice(0, Math.max(0, room))}_${digest}`;
}
