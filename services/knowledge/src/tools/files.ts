import { z } from 'zod';
import { resolveCallerScope } from './caller-scope.ts';
import { docId, fileId, kgId, roomSource, toIso } from './format.ts';
import { knowledgeTool, READ_ONLY } from './knowledge-tool.ts';
import { cursorSchema, finishPage, LIST_CAP, limitSchema, readPage } from './paging.ts';
import type { KnowledgeToolDeps } from './tool-deps.ts';

const DEFAULT_LIMIT = 25;
const Input = z
  .object({
    rooms: z.array(z.string().min(1).max(200)).max(50).optional(),
    status: z.enum(['indexing', 'ready', 'failed']).optional(),
    limit: limitSchema(DEFAULT_LIMIT, LIST_CAP),
    cursor: cursorSchema,
  })
  .strict();
const Output = z.object({
  files: z.array(z.looseObject({ file_id: z.string(), doc_id: z.string(), name: z.string(), status: z.string(), source: z.looseObject({}) })),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
});

export function createFilesTool(deps: KnowledgeToolDeps) {
  return knowledgeTool(deps, {
    name: 'files',
    title: 'List files',
    description: 'Files in your rooms, newest first, with indexing status (indexing / ready / failed), sizes and graph counts.',
    inputSchema: Input,
    outputSchema: Output,
    annotations: READ_ONLY,
    async run(input, ctx) {
      const page = readPage(deps, ctx, 'files', input, DEFAULT_LIMIT, LIST_CAP);
      const scope = await resolveCallerScope(deps, ctx.session.subject, input.rooms);
      const rows = await deps.store.documents.listDocuments(scope.match.roomIds ?? [], page.limit + 1, page.offset, input.status);
      const files = rows.map((d) => ({
        file_id: fileId(d.id),
        doc_id: docId(d.id),
        kg: kgId(d.id),
        name: d.name,
        media_type: d.mediaType,
        sha256: d.sha256,
        size_bytes: d.sizeBytes,
        status: d.status,
        ...(d.error ? { error: d.error } : {}),
        chars: d.charCount,
        chunks: d.chunkCount,
        entities: d.entityCount,
        relations: d.relationCount,
        uploaded_at: toIso(d.createdAt),
        indexed_at: toIso(d.indexedAt),
        source: roomSource(d.id, d.roomId, d.roomName),
      }));
      const { items, ...rest } = finishPage(deps, ctx, 'files', input, page, files);
      return { files: items, ...rest };
    },
  });
}
