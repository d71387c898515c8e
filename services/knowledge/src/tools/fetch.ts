import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cutTextToBudget } from '../domain/page-budget.ts';
import { isImage } from '../domain/detect-media-type.ts';
import { KnowledgeToolError } from '../errors.ts';
import { docId, fileId, parseId, roomSource } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const Input = z
  .object({
    id: z.string().min(1).max(100).describe('DOC:<uuid> (normalised text, the one all offsets point into) or FILE:<uuid> (the original file).'),
    offset: z.number().int().min(0).optional().describe('Character offset to start the window at (default 0).'),
    max_chars: z.number().int().min(1).optional().describe('Window size in characters (clamped to the server maximum).'),
  })
  .strict();

/**
 * `fetch` advertises no output schema (seed 001): a `FILE:` image is answered as an image
 * content block. Text comes back as a header document plus the window, cut to the page budget
 * so `next_offset` always resumes exactly where this window stopped.
 */
export function createFetchTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'fetch',
    title: 'Fetch a document or file',
    description:
      'Reads DOC:<id> text or FILE:<id> originals in windows: pass offset (and max_chars); the answer carries next_offset while more remains. Images come back as image content.',
    inputSchema: Input,
    annotations: READ_ONLY,
    async run(input, ctx): Promise<CallToolResult> {
      const parsed = parseId(input.id, ['DOC', 'FILE', 'KG']);
      const rooms = await deps.store.rooms.accessibleRooms(ctx.session.subject);
      const doc = parsed && (await deps.store.documents.getDocument(parsed.id, rooms.map((r) => r.id)));
      if (!parsed || !doc) throw new KnowledgeToolError(`No document "${input.id}" in the rooms you can access.`);
      const header = { id: `${parsed.prefix === 'FILE' ? fileId(doc.id) : docId(doc.id)}`, name: doc.name, media_type: doc.mediaType, status: doc.status, source: roomSource(doc.id, doc.roomId, doc.roomName) };
      if (parsed.prefix === 'FILE' && isImage(doc.mediaType)) {
        const bytes = await deps.store.documents.blobBytes(doc.sha256);
        if (!bytes) throw new KnowledgeToolError(`The original of "${input.id}" is not stored.`);
        if (bytes.byteLength * 1.34 > deps.knowledge.pageBudgetBytes) {
          throw new KnowledgeToolError(`The image "${input.id}" is larger than one response allows (${bytes.byteLength} bytes).`);
        }
        return {
          content: [
            { type: 'text', text: JSON.stringify({ ...header, size_bytes: doc.sizeBytes }) },
            { type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: doc.mediaType },
          ],
        };
      }
      // FILE: of a text-bearing format reads its extracted text; the original bytes stay in the
      // web app's download path, because PDF/DOCX bytes are not something a model can read.
      const offset = input.offset ?? 0;
      const want = Math.min(input.max_chars ?? deps.knowledge.fetchWindowChars, deps.knowledge.fetchWindowChars);
      const window = await deps.store.documents.textWindow(doc.id, offset, want);
      const text = cutTextToBudget(window.text, deps.knowledge.pageBudgetBytes - 2048);
      const end = offset + text.length;
      const meta = {
        ...header,
        offset,
        length: text.length,
        total_chars: window.total,
        ...(end < window.total ? { next_offset: end } : {}),
        truncated: text.length < window.text.length,
      };
      return { content: [{ type: 'text', text: JSON.stringify(meta) }, { type: 'text', text }] };
    },
  });
}
