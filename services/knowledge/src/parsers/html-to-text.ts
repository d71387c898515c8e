/**
 * HTML → text without a DOM: drop script/style/head, turn block boundaries into line breaks
 * (paragraphs into blank lines, so chunking sees them), strip tags and decode entities.
 * Good enough for filings and exported pages; it does not try to render layout.
 */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', sect: '§', para: '¶', copy: '©',
  reg: '®', trade: '™', hellip: '…', bull: '•', middot: '·', euro: '€', pound: '£', yen: '¥', cent: '¢',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style|head|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/?(p|div|h[1-6]|li|ul|ol|table|section|article|blockquote|pre|tr|header|footer)\b[^>]*>/gi, '\n\n')
      .replace(/<\/?(td|th)\b[^>]*>/gi, ' ')
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t]*\n[ \t]*/g, '\n')
      .replace(/\n{3,}/g, '\n\n'),
  ).trim();
}
