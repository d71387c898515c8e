import express, { type Request, type Router } from 'express';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { KnowledgeConfig } from '../config.ts';
import { ingestFile, UnsupportedFileError } from '../ingest/ingest-file.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';

export interface UploadRoutesOptions {
  readonly config: Config;
  readonly knowledge: KnowledgeConfig;
  readonly store: KnowledgeStore;
  readonly logger: Logger;
  /** Resolves a bearer to the uploading user id; defaults to verifying auth-signed JWTs. */
  readonly authenticateUploader?: (bearer: string) => Promise<string | undefined>;
}

/**
 * The web app's Knowledge page calls these (it is a separate service, so it comes over HTTP with
 * a token auth minted for this resource, never through our tables). Uploading is a write:
 * connector sessions are read-only and are refused here.
 */
export function uploadRoutes(options: UploadRoutesOptions): Router {
  const { store, logger, knowledge } = options;
  const authenticate = options.authenticateUploader ?? defaultUploaderAuth(options.config);
  const router = express.Router();

  const userOf = async (req: Request) => {
    const m = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
    return m ? authenticate(m[1]) : undefined;
  };

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
    const rooms = await store.rooms.accessibleRooms(userId);
    if (!rooms.some((r) => r.id === req.params.roomId)) return void res.status(404).json({ error: 'not_found' });
    res.json({ files: await store.documents.listDocuments([req.params.roomId], 100, 0) });
  });

  router.post('/internal/kb/rooms/:roomId/files', express.raw({ type: () => true, limit: knowledge.maxUploadBytes }), async (req, res) => {
    const userId = await userOf(req);
    if (!userId) return void res.status(401).json({ error: 'invalid_token' });
    const rooms = await store.rooms.accessibleRooms(userId);
    if (!rooms.some((r) => r.id === req.params.roomId)) return void res.status(404).json({ error: 'not_found' });
    const name = String(req.headers['x-file-name'] ?? '').trim();
    if (!name || !Buffer.isBuffer(req.body) || !req.body.length) {
      return void res.status(400).json({ error: 'invalid_request', message: 'send the file as the body with an X-File-Name header' });
    }
    try {
      const result = await ingestFile(store, { roomId: req.params.roomId, userId, name: decodeURIComponent(name), bytes: req.body });
      res.status(result.created ? 201 : 200).json(result);
    } catch (err) {
      if (err instanceof UnsupportedFileError) return void res.status(415).json({ error: 'unsupported_media_type', message: err.message });
      logger.error({ err }, 'upload failed');
      res.status(500).json({ error: 'server_error' });
    }
  });

  return router;
}

function defaultUploaderAuth(config: Config): (bearer: string) => Promise<string | undefined> {
  let jwks: JWTVerifyGetKey | undefined;
  return async (bearer) => {
    jwks ??= createRemoteJWKSet(new URL(`${config.authInternalUrl}/.well-known/jwks.json`), { timeoutDuration: config.authTimeoutMs });
    try {
      const { payload } = await jwtVerify(bearer, jwks, { issuer: config.issuer, audience: config.services.knowledge.resource });
      // Connector sessions only read (seed 001); an upload needs the person's own session.
      if (payload.session_kind === 'connector') return undefined;
      return typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  };
}
