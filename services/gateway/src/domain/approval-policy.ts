/**
 * Which stateful tools may skip the gateway's own approval. Only tools that merely *file a
 * proposal* qualify (our `propose_*`): a person confirms those in the web app anyway, so a
 * second approval adds friction, not safety. A tainted task never auto-approves — a suspicious
 * result earlier in the task may be what is asking for this call (indirect prompt injection).
 */
export function globMatches(glob: string, name: string): boolean {
  const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return re.test(name);
}

export function isAutoApproved(autoApprove: readonly string[], upstreamTool: string, taskTainted: boolean): boolean {
  if (taskTainted) return false;
  return autoApprove.some((g) => globMatches(g, upstreamTool));
}
