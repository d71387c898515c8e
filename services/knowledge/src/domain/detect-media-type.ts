/** Formats ingestion understands. Images are stored and fetchable but carry no text. */
export type MediaType =
  | 'text/plain'
  | 'text/markdown'
  | 'text/html'
  | 'application/pdf'
  | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp';

const BY_EXTENSION: Record<string, MediaType> = {
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  htm: 'text/html',
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Magic bytes win over the name, so a renamed file is parsed by what it is. */
export function detectMediaType(name: string, bytes: Uint8Array): MediaType | undefined {
  const head = Buffer.from(bytes.subarray(0, 16));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head[0] === 0x89 && head.subarray(1, 4).toString('latin1') === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (head[0] === 0x50 && head[1] === 0x4b) return ext === 'docx' ? BY_EXTENSION.docx : undefined;
  const byName = BY_EXTENSION[ext];
  if (byName) return byName;
  // Unknown extension: accept it as plain text only if it decodes as UTF-8 without NULs.
  const sample = Buffer.from(bytes.subarray(0, 4096));
  if (sample.includes(0)) return undefined;
  return 'text/plain';
}

export function isImage(mediaType: string): boolean {
  return mediaType.startsWith('image/');
}
