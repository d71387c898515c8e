/**
 * The `DOC:` text: what every offset (chunks, mentions, citations, `fetch` windows) points into.
 * It is a pure function of the extracted text, so re-ingesting a file reproduces the same offsets.
 *
 * Choices, each made so that counting behaves the way a reader expects on real filings:
 * - CRLF / CR become LF, form and vertical feeds become LF (page breaks in EDGAR text).
 * - Non-breaking and other fixed-width spaces become a plain space, so a phrase typed with a
 *   space matches one typeset with U+00A0.
 * - Curly quotes and primes become straight quotes, so `"Borrower"` matches “Borrower”.
 * - En/em dashes and the minus sign become `-`; soft hyphens and zero-width characters are removed.
 * - NUL and other C0 controls (except tab and LF) are removed; non-BMP characters become U+FFFD.
 * Line structure is kept: hard wraps stay single newlines and blank lines still separate paragraphs.
 */
const REPLACEMENTS: ReadonlyArray<[RegExp, string]> = [
  [/\r\n?/g, '\n'],
  [/[\f\v\u2028\u2029\u0085]/g, '\n'],
  [/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, ' '],
  [/[\u2018\u2019\u201a\u201b\u2032\u0060\u00b4]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/[\u00ad\u200b\u200c\u200d\u2060\ufeff]/g, ''],
  // eslint-disable-next-line no-control-regex
  [/[\u0000-\u0008\u000e-\u001f\u007f]/g, ''],
  // Characters outside the BMP become U+FFFD: offsets are UTF-16 units in JavaScript and code
  // points in Postgres, and this keeps the two identical.
  [/[\u{10000}-\u{10ffff}]/gu, '\ufffd'],
];

export function normaliseText(raw: string): string {
  let text = raw.normalize('NFC');
  for (const [pattern, replacement] of REPLACEMENTS) text = text.replace(pattern, replacement);
  return text;
}
