import { ENCODED_PATTERN, FIREWALL_PATTERNS, type FirewallPattern } from './firewall-patterns.ts';

/**
 * The AI firewall (seed 004): pattern matching → classification → sanitisation, applied to every
 * tool input and every upstream result. Pure and synchronous; a typical result takes well under
 * a millisecond because each pattern is one linear regex pass over normalised text.
 */
export type FirewallVerdict = 'safe' | 'suspicious' | 'malicious';

export interface FirewallFinding {
  readonly pattern: string;
  readonly severity: FirewallPattern['severity'];
  readonly description: string;
}

export interface FirewallScan {
  readonly verdict: FirewallVerdict;
  readonly findings: readonly FirewallFinding[];
}

// Invisible characters that hide text from the person but not from the model.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/gu;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/g;
const HTML_ENTITY = /&#(x[0-9a-f]+|\d+);/gi;

/** Folds compatibility forms (full-width letters, ligatures) and removes invisible characters. */
export function normalizeForScan(text: string): string {
  // NFKC costs time; only pay it when the text has something outside printable ASCII.
  const folded = /[^\x09\x0a\x0d\x20-\x7e]/.test(text) ? text.normalize('NFKC').replace(INVISIBLE, '') : text;
  return folded.toLowerCase();
}

/** Runs of 24+ base64 characters, found with a plain loop: a regex here costs more than every pattern together. */
function base64Runs(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const b64 = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61;
    if (b64) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= 24) runs.push(text.slice(start, i));
      start = -1;
    }
  }
  return runs;
}

function decodeHiddenPayloads(text: string): string[] {
  const decoded: string[] = [];
  for (const run of base64Runs(text)) {
    if (run.length > 4096) continue;
    const plain = Buffer.from(run, 'base64').toString('utf8');
    // Only printable results are text someone meant a model to read.
    if (/^[\x20-\x7e\s]{12,}$/.test(plain)) decoded.push(plain);
  }
  // Whitespace-separated tokens carrying 3+ percent-escapes; a token-level split keeps this linear.
  if ((text.match(PERCENT_ESCAPE)?.length ?? 0) >= 3) {
    for (const token of text.split(/\s+/)) {
      if ((token.match(PERCENT_ESCAPE)?.length ?? 0) < 3) continue;
      try {
        decoded.push(decodeURIComponent(token));
      } catch {
        /* not valid percent-encoding: nothing hidden there */
      }
    }
  }
  if (HTML_ENTITY.test(text)) {
    HTML_ENTITY.lastIndex = 0;
    decoded.push(text.replace(HTML_ENTITY, (_m, code: string) => String.fromCodePoint(code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : Number(code))));
  }
  return decoded;
}

const NON_ASCII = /[^\x00-\x7f]/;

function matchPatterns(raw: string, normalized: string, into: Map<string, FirewallFinding>): void {
  const nonAscii = NON_ASCII.test(raw);
  for (const pattern of FIREWALL_PATTERNS) {
    if (into.has(pattern.id) || (pattern.nonAscii && !nonAscii)) continue;
    if (pattern.regex.test(pattern.raw ? raw : normalized)) {
      into.set(pattern.id, { pattern: pattern.id, severity: pattern.severity, description: pattern.description });
    }
  }
}

/**
 * One `high` finding, or three `medium` ones together, is malicious; anything else found is
 * suspicious. Scores are additive so an attack that dodges the one obvious phrase still trips
 * on the combination (a tool directive + a payment tool name + "without asking").
 */
export function classifyFindings(findings: Iterable<FirewallFinding>): FirewallVerdict {
  let score = 0;
  for (const f of findings) score += f.severity === 'high' ? 3 : 1;
  return score >= 3 ? 'malicious' : score >= 1 ? 'suspicious' : 'safe';
}

export function scanText(text: string): FirewallScan {
  const findings = new Map<string, FirewallFinding>();
  const normalized = normalizeForScan(text);
  matchPatterns(text, normalized, findings);
  for (const payload of decodeHiddenPayloads(text)) {
    const inner = new Map<string, FirewallFinding>();
    matchPatterns(payload, normalizeForScan(payload), inner);
    if ([...inner.values()].some((f) => f.severity === 'high')) {
      findings.set(ENCODED_PATTERN.id, { pattern: ENCODED_PATTERN.id, severity: 'high', description: ENCODED_PATTERN.description });
      for (const [id, f] of inner) if (!findings.has(id)) findings.set(id, f);
    }
  }
  const list = [...findings.values()];
  return { verdict: classifyFindings(list), findings: list };
}

/** Removes what a person cannot see but a model reads: invisible characters and HTML comments. */
export function sanitizeText(text: string): string {
  if (!/[^\x09\x0a\x0d\x20-\x7e]|<!--/.test(text)) return text;
  return text.replace(INVISIBLE, '').replace(HTML_COMMENT, '');
}

/** Every string inside a JSON-like value, joined (keys included: they can carry text too). */
export function collectStrings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 32) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.length > 24) out.push(k);
      collectStrings(v, out, depth + 1);
    }
  }
  return out;
}

/** Returns a copy of `value` with every string sanitised (the same object when nothing changed). */
export function sanitizeDeep<T>(value: T, depth = 0): T {
  if (depth > 32) return value;
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((v) => {
      const s = sanitizeDeep(v, depth + 1);
      if (s !== v) changed = true;
      return s;
    });
    return (changed ? next : value) as T;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = sanitizeDeep(v, depth + 1);
      if (s !== v) changed = true;
      next[k] = s;
    }
    return (changed ? next : value) as T;
  }
  return value;
}

/** Scans a whole JSON-like value (tool arguments or a tool result) as one text. */
export function scanValue(value: unknown): FirewallScan {
  return scanText(collectStrings(value).join('\n'));
}
