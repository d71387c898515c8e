/**
 * Which constraint refused a statement. drizzle wraps the driver error in `cause`; postgres.js
 * names it `constraint_name`, PGlite `constraint`.
 */
export function violatedConstraint(err: unknown): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; e = e.cause as Record<string, unknown> | undefined, depth++) {
    const name = e.constraint_name ?? e.constraint;
    if (typeof name === 'string') return name;
  }
  return undefined;
}

export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; e = e.cause as Record<string, unknown> | undefined, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
