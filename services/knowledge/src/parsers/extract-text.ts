import { htmlToText } from './html-to-text.ts';

/** Raw text of a file by media type (before normalisation). Images have none. */
export async function extractText(mediaType: string, bytes: Uint8Array): Promise<string> {
  switch (mediaType) {
    case 'text/plain':
    case 'text/markdown':
      return decodeUtf8(bytes);
    case 'text/html':
      return htmlToText(decodeUtf8(bytes));
    case 'application/pdf': {
      // Loaded lazily: pdf.js is large and most ingests are text.
      const { extractText: pdfText, getDocumentProxy } = await import('unpdf');
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      const { text } = await pdfText(pdf, { mergePages: false });
      // Pages become paragraphs, so no chunk (and no phrase) straddles a page break.
      return text.map((page) => page.trim()).join('\n\n');
    }
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
      const mammoth = await import('mammoth');
      const result = await (mammoth.default ?? mammoth).extractRawText({ buffer: Buffer.from(bytes) });
      return result.value;
    }
    default:
      return '';
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  // Non-UTF-8 bytes become U+FFFD rather than failing the ingest: EDGAR text is mostly clean.
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
}
