import express, { type Request, type Router } from 'express';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import { createOboVerifier } from '../../../../shared/auth/verify-obo-token.ts';
import type { KnowledgeConfig } from '../config.ts';
import { claimFile, indexClaimedFile, UnsupportedFileError } from '../ingest/ingest-file.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';

export interface UploadRoutesOptions {
  readonly config: Config;
  readonly knowledge: KnowledgeConfig;
  readonly store: KnowledgeStore;
  readonly logger: Logger;
  /** Background indexing runs are tracked here so `close()` waits for them. */
  readonly background: Set<Promise<unknown>>;
  /** Resolves a bearer to the uploading user id; defaults to verifying auth's on-behalf-of tokens. */
  readonly authenticateUploader?: (bearer: string) => Promise<string | undefined>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The web app's Knowledge page calls these (it is a separate service, so it comes over HTTP with
 * an on-behalf-of token auth minted for this resource, never through our tables). Uploading is a
 * write: only a `personal` subject is admitted, so an agent's connector session — even one
 * relayed through another service — can never add documents.
 *
 * `Prefer: respond-async` on an upload answers 202 as soon as the row is claimed (`indexing`)
 * and indexes in the background: the page shows progress by re-reading the file list.
 */
export function uploadRoutes(options: UploadRoutesOptions): Router {
  const { store, logger, knowledge, background } = options;
  const authenticate = options.authenticateUploader ?? personalOboAuth(options.config);
  const router = express.Router();

  const userOf = async (req: Request) => {
    const m = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
    return m ? authenticate(m[1]!) : undefined;
  };
  /** Outside the caller's rooms reads exactly like a room that does not exist. */
  const roomOf = async (userId: string, roomId: string) =>
    UUID.test(roomId) ? (await store.rooms.accessibleRooms(userId)).find((r) => r.id === roomId) : undefined;

  router.get('/internal/kb/rooms', async (req, res) => {
    const userId = await userOf(req);
    if (!userId) return void res.status(401).json({ error: 'invalid_token' });
    res.json({ rooms: await store.rooms.accessibleRooms(userId) });
  });

  router.post('/internal/kb/rooms', express.json({ limit: '8kb' }), async (req, res) => {
    const userId = await userOf(req);
    if (!userId) return void res.status(401).json({ error: 'invalid_token' });
    const name = typeof req.body?.name === 'string' ? req.body.name.trim() : '';
    const kind = req.body?.kind === 'notebook' ? 'notebook' : 'workspace';
    if (!name || name.length > 200) return void res.status(400).json({ error: 'invalid_request', message: 'name is required (≤ 200 characters)' });
    res.status(201).json({ room: await store.rooms.ensureRoom(name, userId, kind) });
  });

  router.get('/internal/kb/rooms/:roomId/files', async (req, res) => {
    const userId = await userOf(req);
    if (!userId) return void res.status(401).json({ error: 'invalid_token' });
    const room = await roomOf(userId, req.params.roomId);
    if (!room) return void res.status(404).json({ error: 'not_found' });
    res.json({ room, files: await store.documents.listDocuments([room.id], 100, 0) });
  });

  router.post('/internal/kb/rooms/:roomId/files', express.raw({ type: () => true, limit: knowledge.maxUploadBytes }), async (req, res) => {
    const userId = await userOf(req);
    if (!userId) return void res.status(401).json({ error: 'invalid_token' });
    const room = await roomOf(userId, req.params.roomId);
    if (!room) return void res.status(404).json({ error: 'not_found' });
    let name = '';
    try {
      name = decodeURIComponent(String(req.headers['x-file-name'] ?? '')).trim();
    } catch {
      name = '';
    }
    if (!name || name.length > 500 || !Buffer.isBuffer(req.body) || !req.body.length) {
      return void res.status(400).json({ error: 'invalid_request', message: 'send the file as the body with an X-File-Name header' });
    }
    const input = { roomId: room.id, userId, name, bytes: req.body as Buffer };
    try {
      const claimed = await claimFile(store, input);
      if (/\brespond-async\b/i.test(String(req.headers.prefer ?? '')) && claimed.created) {
        const run = indexClaimedFile(store, claimed, input)
          .catch((err) => logger.error({ err, documentId: claimed.documentId }, 'background indexing failed'))
          .finally(() => background.delete(run));
        background.add(run);
        return void res.status(202).json({ documentId: claimed.documentId, status: 'indexing', created: true });
      }
      const result = await indexClaimedFile(store, claimed, input);
      res.status(result.created ? 201 : 200).json(result);
    } catch (err) {
      if (err instanceof UnsupportedFileError) return void res.status(415).json({ error: 'unsupported_media_type', message: err.message });
      logger.error({ err }, 'upload failed');
      res.status(500).json({ error: 'server_error' });
    }
  });

  return router;
}

function personalOboAuth(config: Config): (bearer: string) => Promise<string | undefined> {
  const verify = createOboVerifier({
    issuer: config.issuer,
    resource: config.services.knowledge.resource,
    jwksUrl: `${config.authInternalUrl}/.well-known/jwks.json`,
    timeoutMs: config.authTimeoutMs,
  });
  return async (bearer) => {
    const verified = await verify(bearer);
    // Connector sessions only read (seed 001): an upload or a new room needs the person's own session.
    if (!verified.ok || verified.claims.subject_kind !== 'personal') return undefined;
    return typeof verified.claims.sub === 'string' ? verified.claims.sub : undefined;
  };
}
