import type { DbHandle } from '../../shared/db/client.ts';

/**
 * Fault injection at the database driver's edge: while `down`, every query entry point throws
 * the error a dropped connection raises. Used to show what the services do when auth's database
 * is unreachable, and that they recover without a restart.
 */
export function faultyDb(handle: DbHandle): { handle: DbHandle; setDown(down: boolean): void } {
  let down = false;
  const refuse = () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  };
  const entryPoints = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'execute', 'transaction']);
  const db = new Proxy(handle.db, {
    get(target, prop, receiver) {
      if (down && typeof prop === 'string' && entryPoints.has(prop)) return refuse;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { handle: { ...handle, db, rows: (q) => (down ? Promise.reject(new Error('ECONNREFUSED')) : handle.rows(q)) }, setDown: (d) => (down = d) };
}
