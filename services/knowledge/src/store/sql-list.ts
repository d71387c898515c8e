import { sql, type SQL } from 'drizzle-orm';

/**
 * `(…)` list of bound parameters. Drizzle expands a JS array inside `sql` differently per
 * driver, so lists are always spelled out; an empty list becomes `(NULL)`, which matches nothing.
 */
export function sqlList(values: readonly unknown[]): SQL {
  if (!values.length) return sql`(NULL)`;
  return sql`(${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;
}
