/**
 * A proposed execution order for pipeline tasks: Kahn's algorithm, ties broken by id so the
 * same graph always yields the same plan. Tasks caught in a cycle are reported, not dropped.
 */
export function proposeOrder(taskIds: readonly string[], edges: ReadonlyArray<{ taskId: string; predecessorId: string }>): { order: string[][]; cyclic: string[] } {
  const ids = new Set(taskIds);
  const indegree = new Map<string, number>([...ids].map((id) => [id, 0]));
  const successors = new Map<string, string[]>();
  for (const { taskId, predecessorId } of edges) {
    if (!ids.has(taskId) || !ids.has(predecessorId)) continue;
    indegree.set(taskId, indegree.get(taskId)! + 1);
    successors.set(predecessorId, [...(successors.get(predecessorId) ?? []), taskId]);
  }
  const order: string[][] = [];
  let ready = [...ids].filter((id) => indegree.get(id) === 0).sort();
  const done = new Set<string>();
  while (ready.length) {
    order.push(ready);
    const next: string[] = [];
    for (const id of ready) {
      done.add(id);
      for (const s of successors.get(id) ?? []) {
        indegree.set(s, indegree.get(s)! - 1);
        if (indegree.get(s) === 0) next.push(s);
      }
    }
    ready = next.sort();
  }
  return { order, cyclic: [...ids].filter((id) => !done.has(id)).sort() };
}
