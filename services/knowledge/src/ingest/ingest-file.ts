import { createHash } from 'node:crypto';
import { chunkText } from '../domain/chunk-text.ts';
import { detectMediaType, isImage } from '../domain/detect-media-type.ts';
import { extractEntities } from '../domain/extract-entities.ts';
import { normaliseText } from '../domain/normalise-text.ts';
import { extractText } from '../parsers/extract-text.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';

export interface IngestFileInput {
  readonly roomId: string;
  /** The uploader; must already be a member of the room (the caller checks). */
  readonly userId: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Progress for upload pages and the CLI bar: stage and fraction of this file (0…1). */
  readonly onProgress?: (stage: IngestStage, fraction: number) => void;
}

export type IngestStage = 'stored' | 'parsed' | 'indexed';

export interface IngestFileResult {
  readonly documentId: string;
  readonly sha256: string;
  readonly mediaType: string;
  /** false when the same bytes were already in this room (SHA-256 dedupe): nothing was re-indexed. */
  readonly created: boolean;
  readonly status: 'ready' | 'failed' | 'indexing';
  readonly chars?: number;
  readonly chunks?: number;
  readonly entities?: number;
  readonly error?: string;
}

export class UnsupportedFileError extends Error {
  override name = 'UnsupportedFileError';
}

export interface ClaimedFile {
  readonly documentId: string;
  readonly sha256: string;
  readonly mediaType: string;
  /** false when the same bytes were already in this room: there is nothing to index. */
  readonly created: boolean;
  /** This claim's attempt: only it may write the index or the outcome (see schema `attempt`). */
  readonly attempt: number;
}

/**
 * First half of ingestion, fast and synchronous for the caller: store the bytes once, claim the
 * (room, sha256) row as `indexing`. The unique index decides, so concurrent uploads index once.
 */
export async function claimFile(store: KnowledgeStore, input: IngestFileInput): Promise<ClaimedFile> {
  const mediaType = detectMediaType(input.name, input.bytes);
  if (!mediaType) throw new UnsupportedFileError(`unsupported file type: ${input.name}`);
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  await store.documents.storeBlob(sha256, mediaType, input.bytes);
  const claim = await store.documents.claimDocument({ roomId: input.roomId, sha256, name: input.name, mediaType, userId: input.userId });
  input.onProgress?.('stored', 0.1);
  return { documentId: claim.id, sha256, mediaType, created: claim.created, attempt: claim.attempt };
}

/**
 * Second half: parse → normalise → chunk → extract, and write the index in one transaction. A
 * parse failure leaves a `failed` row with the reason, which a re-upload retries. If the row was
 * claimed again meanwhile (swept as stalled, then re-uploaded), this run writes nothing and
 * reports the row as the newer attempt leaves it.
 */
export async function indexClaimedFile(store: KnowledgeStore, claimed: ClaimedFile, input: IngestFileInput): Promise<IngestFileResult> {
  const { documentId, sha256, mediaType } = claimed;
  if (!claimed.created) {
    const existing = await store.documents.getDocument(documentId, [input.roomId]);
    input.onProgress?.('indexed', 1);
    return { documentId, sha256, mediaType, created: false, status: existing?.status ?? 'indexing', chars: existing?.charCount, chunks: existing?.chunkCount, entities: existing?.entityCount };
  }
  try {
    const raw = isImage(mediaType) ? '' : await extractText(mediaType, input.bytes);
    const text = normaliseText(raw);
    input.onProgress?.('parsed', 0.4);
    const chunks = chunkText(text);
    const graph = extractEntities(text, chunks);
    if (!(await store.documents.saveIndex(documentId, claimed.attempt, input.roomId, text, chunks, graph))) return superseded(store, claimed, input);
    input.onProgress?.('indexed', 1);
    return { documentId, sha256, mediaType, created: true, status: 'ready', chars: text.length, chunks: chunks.length, entities: graph.entities.length };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await store.documents.markFailed(documentId, claimed.attempt, message);
    return { documentId, sha256, mediaType, created: true, status: 'failed', error: message };
  }
}

async function superseded(store: KnowledgeStore, claimed: ClaimedFile, input: IngestFileInput): Promise<IngestFileResult> {
  const current = await store.documents.getDocument(claimed.documentId, [input.roomId]);
  const { documentId, sha256, mediaType } = claimed;
  return { documentId, sha256, mediaType, created: false, status: current?.status ?? 'indexing', error: 'superseded: the file was claimed again by a newer upload, whose result stands' };
}

/** The one ingestion path (CLI, HTTP upload, tests): claim, then index. */
export async function ingestFile(store: KnowledgeStore, input: IngestFileInput): Promise<IngestFileResult> {
  return indexClaimedFile(store, await claimFile(store, input), input);
}
