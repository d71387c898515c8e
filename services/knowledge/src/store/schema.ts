import { sql } from 'drizzle-orm';
import {
  bigserial,
  bigint,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Knowledge-side tables. Users live in auth's `users`; we only hold their ids (no FK across services). */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A room is a workspace (shared by its members) or a private notebook (one member). */
export const kbRooms = pgTable(
  'kb_rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One room of a given name per creator, so `kb ingest --room NAME` is idempotent under races.
    uniqueIndex('kb_rooms_creator_name').on(t.createdBy, t.name),
    check('kb_rooms_kind_check', sql`${t.kind} in ('workspace', 'notebook')`),
  ],
);

export const kbRoomMembers = pgTable(
  'kb_room_members',
  {
    roomId: uuid('room_id').notNull().references(() => kbRooms.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    role: text('role').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index('kb_room_members_user').on(t.userId)],
);

/** Original bytes, stored once per SHA-256 however many rooms hold the file. */
export const kbBlobs = pgTable('kb_blobs', {
  sha256: text('sha256').primaryKey(),
  mediaType: text('media_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A file placed in a room, with its normalised text (`DOC:` text; every offset in chunks,
 * mentions and citations points into it) and its knowledge graph (`KG:` id = document id).
 */
export const kbDocuments = pgTable(
  'kb_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id').notNull().references(() => kbRooms.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull().references(() => kbBlobs.sha256),
    name: text('name').notNull(),
    mediaType: text('media_type').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    text: text('text').notNull().default(''),
    charCount: integer('char_count').notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    entityCount: integer('entity_count').notNull().default(0),
    relationCount: integer('relation_count').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    /**
     * Bumped by every claim of the row for indexing. Only the holder of the current attempt may
     * write the index or the outcome, so an indexer that was given up on (swept) and then
     * superseded by a re-upload cannot overwrite the newer run.
     */
    attempt: integer('attempt').notNull().default(1),
    /** When the current attempt claimed the row: the sweeper fails `indexing` rows older than its timeout. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Dedupe lives in the database: two concurrent uploads of one file into one room make one row.
    uniqueIndex('kb_documents_room_sha').on(t.roomId, t.sha256),
    index('kb_documents_room_created').on(t.roomId, t.createdAt),
    // The sweeper's scan: only rows still indexing, oldest claim first.
    index('kb_documents_indexing_claimed').on(t.claimedAt).where(sql`${t.status} = 'indexing'`),
    check('kb_documents_status_check', sql`${t.status} in ('indexing', 'ready', 'failed')`),
  ],
);

/**
 * Paragraph-sized passages. Counting and ranking run here, not on whole documents: a tsvector
 * keeps at most 16,383 positions (and 256 per lexeme), so document-wide vectors under-count.
 */
export const kbChunks = pgTable(
  'kb_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id').notNull().references(() => kbDocuments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    text: text('text').notNull(),
    tsv: tsvector('tsv').generatedAlwaysAs(sql`to_tsvector('english'::regconfig, "text")`),
  },
  (t) => [
    uniqueIndex('kb_chunks_document_ordinal').on(t.documentId, t.ordinal),
    index('kb_chunks_room').on(t.roomId),
    // GIN buffers inserts in a pending list that every search scans linearly until it is merged
    // (at 4 MB by default, or by (auto)vacuum). After a burst of ingestion that list cost each
    // search ~4 ms at 10,000 documents; a 256 kB limit merges in smaller batches instead.
    index('kb_chunks_tsv').using('gin', t.tsv).with({ gin_pending_list_limit: 256 }),
    // Trigram index serves exact (regex) and fuzzy (substring) counting: it is lossy only towards
    // false positives, which the regex recheck removes, so an exhaustive count never misses a row.
    index('kb_chunks_text_trgm').using('gin', t.text.op('gin_trgm_ops')),
  ],
);

/**
 * Per-document postings for exhaustive counting: every term of the document with its positions
 * (chunk ordinal × 16,384 + position in the chunk, so no phrase spans two chunks). A common term
 * is then one index lookup per document instead of a regex over every chunk.
 * - `kb_tokens`: exact-mode tokens (lower-cased; letters/digits joined by `.` `-` `/`). Two tokens
 *   are one position apart only when separated by blanks with at most one line break.
 * - `kb_lexemes`: the `english` lexemes of the chunk tsvectors (phrase mode), copied in SQL.
 *
 * Follower lists (domain/follower-list.ts) make the commonest phrase, two words, countable from
 * the first word's row alone: a join of two rows per document costs about ten times a single
 * row at 10,000 documents. Rows written before follower lists existed were filled from their
 * positions by migration 0005.
 *
 * Both tables are hash-partitioned by term into 64 partitions (migration 0007; drizzle cannot
 * declare it). Rows are written per document, so in one heap a term's rows lie one per page;
 * partitioned, a page holds ~16 rows of the same term and a count over 10,000 documents reads
 * ~665 buffers instead of ~9,900.
 */
export const kbTokens = pgTable(
  'kb_tokens',
  {
    term: text('term').notNull(),
    // No foreign key: a per-row FK check on every posting doubled ingestion time; saveIndex
    // writes and clears postings together with the document's other index rows.
    documentId: uuid('document_id').notNull(),
    roomId: uuid('room_id').notNull(),
    positions: integer('positions').array().notNull(),
    /** The token right after each occurrence, where an exact phrase may join the two. */
    followers: text('followers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.documentId] }), index('kb_tokens_document').on(t.documentId)],
);

export const kbLexemes = pgTable(
  'kb_lexemes',
  {
    term: text('term').notNull(),
    // No foreign key: a per-row FK check on every posting doubled ingestion time; saveIndex
    // writes and clears postings together with the document's other index rows.
    documentId: uuid('document_id').notNull(),
    roomId: uuid('room_id').notNull(),
    positions: integer('positions').array().notNull(),
    /** Lexemes one position after each occurrence (`a b`), and two after (`a <2> b`: one stop word between, as in "event of default"). */
    followers1: text('followers1').notNull(),
    followers2: text('followers2').notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.documentId] }), index('kb_lexemes_document').on(t.documentId)],
);

export const kbEntities = pgTable(
  'kb_entities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id').notNull().references(() => kbDocuments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    label: text('label').notNull(),
    attrs: jsonb('attrs').notNull().default({}),
    mentionCount: integer('mention_count').notNull(),
  },
  (t) => [
    uniqueIndex('kb_entities_document_kind_key').on(t.documentId, t.kind, t.key),
    index('kb_entities_room_kind').on(t.roomId, t.kind),
    index('kb_entities_key_trgm').using('gin', t.key.op('gin_trgm_ops')),
  ],
);

export const kbMentions = pgTable(
  'kb_mentions',
  {
    entityId: bigint('entity_id', { mode: 'number' }).notNull().references(() => kbEntities.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').notNull(),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entityId, t.startOffset] }), index('kb_mentions_document').on(t.documentId, t.startOffset)],
);

/** `defines` (a defined term → its definition span) and `co_occurs` (two entities in one clause). */
export const kbRelations = pgTable(
  'kb_relations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id').notNull().references(() => kbDocuments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').notNull(),
    kind: text('kind').notNull(),
    fromEntity: bigint('from_entity', { mode: 'number' }).notNull().references(() => kbEntities.id, { onDelete: 'cascade' }),
    toEntity: bigint('to_entity', { mode: 'number' }).references(() => kbEntities.id, { onDelete: 'cascade' }),
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    weight: integer('weight').notNull().default(1),
  },
  (t) => [index('kb_relations_from').on(t.fromEntity), index('kb_relations_to').on(t.toEntity), index('kb_relations_document').on(t.documentId)],
);

/** A frozen set: the documents matching a query at one instant, as one INSERT … SELECT. */
export const kbSets = pgTable(
  'kb_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id').notNull().defaultRandom(),
    ownerId: uuid('owner_id').notNull(),
    query: text('query').notNull(),
    mode: text('mode').notNull(),
    scope: jsonb('scope').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    documents: integer('documents'),
    occurrences: integer('occurrences'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('kb_sets_job').on(t.jobId),
    index('kb_sets_owner').on(t.ownerId, t.createdAt),
    check('kb_sets_status_check', sql`${t.status} in ('running', 'done', 'failed')`),
  ],
);

export const kbSetMembers = pgTable(
  'kb_set_members',
  {
    setId: uuid('set_id').notNull().references(() => kbSets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id').notNull().references(() => kbDocuments.id),
    roomId: uuid('room_id').notNull(),
    occurrences: integer('occurrences').notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.documentId] })],
);

/** A set shared into a workspace: its members read the set (as `source: {set}`), not the rooms behind it. */
export const kbSetShares = pgTable(
  'kb_set_shares',
  {
    setId: uuid('set_id').notNull().references(() => kbSets.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').notNull().references(() => kbRooms.id, { onDelete: 'cascade' }),
    sharedBy: uuid('shared_by').notNull(),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.roomId] }), index('kb_set_shares_room').on(t.roomId)],
);

/** Deals are knowledge-side records; only their parties may read them. */
export const kbDeals = pgTable('kb_deals', {
  id: uuid('id').primaryKey().defaultRandom(),
  workspaceId: uuid('workspace_id'),
  title: text('title').notNull(),
  status: text('status').notNull(),
  summary: text('summary').notNull().default(''),
  terms: jsonb('terms').notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const kbDealParties = pgTable(
  'kb_deal_parties',
  {
    dealId: uuid('deal_id').notNull().references(() => kbDeals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    role: text('role').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.userId] }), index('kb_deal_parties_user').on(t.userId)],
);
