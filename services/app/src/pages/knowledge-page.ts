import busboy from 'busboy';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../../../shared/config.ts';
import type { Logger } from '../../../../shared/log.ts';
import type { AccountService } from '../../../auth/src/account-service.ts';
import { html, layout, type SafeHtml } from '../html.ts';
import { createWebSessionMiddleware, signedInOf, type SignedIn } from '../web-session.ts';

/** The knowledge service's own default (KNOWLEDGE_MAX_UPLOAD_BYTES); it re-checks whatever we send. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Seconds between reloads while a file is indexing: the CSP forbids scripts, so the page polls itself. */
const REFRESH_WHILE_INDEXING_SECONDS = 2;

const CreateRoomForm = z.object({
  name: z.string().trim().min(1, 'Give the room a name').max(200, 'The name is too long'),
  kind: z.enum(['workspace', 'notebook']).default('workspace'),
});
const RoomId = z.uuid();

interface RoomView {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly role: string;
}
interface FileView {
  readonly id: string;
  readonly name: string;
  readonly status: 'indexing' | 'ready' | 'failed';
  readonly error: string | null;
  readonly chunkCount: number;
  readonly entityCount: number;
  readonly sizeBytes: number;
  readonly createdAt: string;
}
interface KnowledgeReply {
  readonly status: number;
  readonly body: any;
}

/**
 * The web app never touches knowledge tables: it calls the knowledge service's internal routes
 * with an on-behalf-of token minted in-process for the signed-in person, marked `personal` —
 * the only subject kind those routes accept, so an agent's connector session can never upload.
 */
function createKnowledgeClient(deps: { config: Config; accountService: AccountService; timeoutMs?: number }) {
  const { config, accountService } = deps;
  const endpoint = config.services.knowledge;
  return async function callKnowledge(
    userId: string,
    method: 'GET' | 'POST',
    path: string,
    body?: { json: unknown } | { file: Buffer; name: string },
  ): Promise<KnowledgeReply> {
    const { access_token } = await accountService.mintOboToken({ userId, audience: endpoint.resource, subjectKind: 'personal', chainId: null, actor: 'web-app' });
    const headers: Record<string, string> = { authorization: `Bearer ${access_token}` };
    let payload: string | Uint8Array<ArrayBuffer> | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body) {
      // Answer once the row is claimed; the room page then shows `indexing` until it is ready.
      Object.assign(headers, { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(body.name), prefer: 'respond-async' });
      payload = new Uint8Array(body.file);
    }
    try {
      const res = await fetch(`${endpoint.publicUrl}${path}`, {
        method,
        headers,
        ...(payload !== undefined ? { body: payload } : {}),
        signal: AbortSignal.timeout(deps.timeoutMs ?? config.authTimeoutMs * 6),
      });
      return { status: res.status, body: await res.json().catch(() => ({})) };
    } catch {
      return { status: 503, body: { error: 'downstream_failed', message: 'The knowledge service is unavailable; try again shortly' } };
    }
  };
}

function statusBadge(status: FileView['status']): SafeHtml {
  return html`<span class="badge status-${status}" data-status="${status}">${status}</span>`;
}

function sizeLabel(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

type Flash = { kind: 'error' | 'ok'; text: string };

function roomsPage(signedIn: SignedIn, rooms: readonly RoomView[], flash?: Flash): string {
  const { user, csrfToken } = signedIn;
  const rows = rooms.map(
    (r) => html`<tr data-room-id="${r.id}"><td><a href="/knowledge/rooms/${r.id}">${r.name}</a></td><td>${r.kind}</td><td>${r.role}</td></tr>`,
  );
  return layout(
    { title: 'Knowledge', active: '/knowledge', signedInEmail: user.email, csrfToken, ...(flash ? { flash } : {}) },
    html`<section><h1>Knowledge</h1>
<p class="muted">Rooms hold the documents your AI clients can search and count through the knowledge MCP server. A <strong>workspace</strong> can be shared; a <strong>notebook</strong> is yours alone.</p>
<form method="post" action="/knowledge/rooms"><input type="hidden" name="csrf" value="${csrfToken}">
<label for="room_name">New room</label><input id="room_name" name="name" type="text" required maxlength="200" placeholder="Credit agreements">
<fieldset><legend class="muted">Kind</legend><label><input type="radio" name="kind" value="workspace" checked> Workspace</label><label><input type="radio" name="kind" value="notebook"> Notebook</label></fieldset>
<p><button type="submit">Create room</button></p></form></section>
<section><h2>Your rooms</h2>${rooms.length ? html`<table><thead><tr><th>Name</th><th>Kind</th><th>Role</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No rooms yet.</p>`}</section>`,
  );
}

function roomPage(signedIn: SignedIn, room: RoomView, files: readonly FileView[], flash?: Flash): string {
  const { user, csrfToken } = signedIn;
  const indexing = files.some((f) => f.status === 'indexing');
  const rows = files.map(
    (f) => html`<tr data-file-id="${f.id}"><td class="file-name">${f.name}</td><td>${statusBadge(f.status)}${f.error ? html` <span class="muted">${f.error}</span>` : ''}</td>
<td>${f.status === 'ready' ? f.chunkCount : '—'}</td><td>${f.status === 'ready' ? f.entityCount : '—'}</td><td>${sizeLabel(f.sizeBytes)}</td><td>${f.createdAt.slice(0, 16).replace('T', ' ')}</td></tr>`,
  );
  return layout(
    { title: `${room.name} · Knowledge`, active: '/knowledge', signedInEmail: user.email, csrfToken, ...(flash ? { flash } : {}) },
    // A meta refresh, not a script: the CSP allows no scripts, and it stops once nothing is indexing.
    html`${indexing ? html`<meta http-equiv="refresh" content="${REFRESH_WHILE_INDEXING_SECONDS}">` : ''}<section><p><a href="/knowledge">← All rooms</a></p><h1 id="room-name">${room.name}</h1>
<p class="muted">${room.kind} · ${room.role}</p>
<form method="post" action="/knowledge/rooms/${room.id}/files" enctype="multipart/form-data"><input type="hidden" name="csrf" value="${csrfToken}">
<label for="file">Add a document</label><input id="file" name="file" type="file" required accept=".pdf,.docx,.txt,.md,.html,.htm,.csv,.json,.png,.jpg,.jpeg">
<p><button type="submit">Upload</button></p></form></section>
<section><h2>Files</h2>${indexing ? html`<p class="muted" id="indexing-note">Indexing… this page refreshes itself until every file is ready.</p>` : ''}
${files.length ? html`<table id="files"><thead><tr><th>Name</th><th>Status</th><th>Chunks</th><th>Entities</th><th>Size</th><th>Added (UTC)</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No files yet.</p>`}</section>`,
  );
}

interface UploadedForm {
  readonly fields: Record<string, string>;
  readonly file?: { name: string; bytes: Buffer; truncated: boolean };
}

/**
 * Buffers one multipart form (one file, a few small fields) into `req.body`. Runs after the
 * session check, so only a signed-in person can make us hold an upload in memory, and before the
 * CSRF check, which needs the `csrf` field from inside the form.
 */
function parseUploadForm(req: Request, res: Response, next: NextFunction): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 5, fieldSize: 1024, fileSize: MAX_UPLOAD_BYTES } });
  } catch {
    res.status(400).type('text/plain').send('Bad request: send the form as multipart/form-data.');
    return;
  }
  const form: { fields: Record<string, string>; file?: UploadedForm['file'] } = { fields: {} };
  parser.on('field', (name, value) => {
    form.fields[name] = value;
  });
  parser.on('file', (_field, stream, info) => {
    const parts: Buffer[] = [];
    let truncated = false;
    stream.on('data', (d: Buffer) => parts.push(d));
    stream.on('limit', () => {
      truncated = true;
    });
    stream.on('end', () => {
      if (!form.file) form.file = { name: info.filename ?? '', bytes: Buffer.concat(parts), truncated };
    });
  });
  parser.on('error', () => {
    if (!res.headersSent) res.status(400).type('text/plain').send('Bad request: the upload could not be read.');
  });
  parser.on('close', () => {
    req.body = { ...form.fields, upload: form satisfies UploadedForm };
    next();
  });
  req.pipe(parser);
}

export function knowledgePageRouter(deps: { config: Config; accountService: AccountService; logger: Logger }): Router {
  const { accountService, logger } = deps;
  const web = createWebSessionMiddleware({ accountService });
  const callKnowledge = createKnowledgeClient(deps);
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  const sendHtml = (res: Response, status: number, page: string) => res.status(status).set('Cache-Control', 'no-store').type('html').send(page);

  async function renderRooms(res: Response, signedIn: SignedIn, status = 200, flash?: Flash) {
    const reply = await callKnowledge(signedIn.user.id, 'GET', '/internal/kb/rooms');
    if (reply.status !== 200) {
      logger.warn({ status: reply.status }, 'knowledge rooms unavailable');
      return sendHtml(res, 503, roomsPage(signedIn, [], { kind: 'error', text: 'The knowledge service is unavailable; try again shortly.' }));
    }
    return sendHtml(res, status, roomsPage(signedIn, reply.body.rooms ?? [], flash));
  }

  async function renderRoom(res: Response, signedIn: SignedIn, roomId: string, status = 200, flash?: Flash) {
    const reply = await callKnowledge(signedIn.user.id, 'GET', `/internal/kb/rooms/${roomId}/files`);
    if (reply.status === 404) return renderRooms(res, signedIn, 404, { kind: 'error', text: 'That room does not exist.' });
    if (reply.status !== 200) {
      logger.warn({ status: reply.status }, 'knowledge files unavailable');
      return renderRooms(res, signedIn, 503, { kind: 'error', text: 'The knowledge service is unavailable; try again shortly.' });
    }
    const files: FileView[] = (reply.body.files ?? []).map((f: any) => ({ ...f, createdAt: String(f.createdAt) }));
    return sendHtml(res, status, roomPage(signedIn, reply.body.room, files, flash));
  }

  router.get('/knowledge', web.requireSignedIn, async (req, res) => {
    await renderRooms(res, signedInOf(req));
  });

  router.post('/knowledge/rooms', form, web.requireSignedIn, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const parsed = CreateRoomForm.safeParse(req.body);
    if (!parsed.success) return renderRooms(res, signedIn, 400, { kind: 'error', text: parsed.error.issues.map((i) => i.message).join('; ') });
    const reply = await callKnowledge(signedIn.user.id, 'POST', '/internal/kb/rooms', { json: parsed.data });
    if (reply.status !== 201) return renderRooms(res, signedIn, reply.status === 400 ? 400 : 503, { kind: 'error', text: reply.body.message ?? 'The room could not be created; try again shortly.' });
    res.redirect(303, `/knowledge/rooms/${reply.body.room.id}`);
  });

  router.get('/knowledge/rooms/:roomId', web.requireSignedIn, async (req, res) => {
    const signedIn = signedInOf(req);
    const roomId = RoomId.safeParse(req.params.roomId);
    if (!roomId.success) return renderRooms(res, signedIn, 404, { kind: 'error', text: 'That room does not exist.' });
    await renderRoom(res, signedIn, roomId.data);
  });

  router.post('/knowledge/rooms/:roomId/files', web.requireSignedIn, parseUploadForm, web.requireCsrf, async (req, res) => {
    const signedIn = signedInOf(req);
    const roomId = RoomId.safeParse(req.params.roomId);
    if (!roomId.success) return renderRooms(res, signedIn, 404, { kind: 'error', text: 'That room does not exist.' });
    const { file } = (req.body as { upload: UploadedForm }).upload;
    if (!file || !file.name || !file.bytes.length) return renderRoom(res, signedIn, roomId.data, 400, { kind: 'error', text: 'Choose a non-empty file to upload.' });
    if (file.truncated) return renderRoom(res, signedIn, roomId.data, 413, { kind: 'error', text: `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.` });
    const reply = await callKnowledge(signedIn.user.id, 'POST', `/internal/kb/rooms/${roomId.data}/files`, { file: file.bytes, name: file.name });
    if (reply.status === 404) return renderRooms(res, signedIn, 404, { kind: 'error', text: 'That room does not exist.' });
    if (reply.status === 415) return renderRoom(res, signedIn, roomId.data, 415, { kind: 'error', text: `${file.name}: this file type is not supported.` });
    if (reply.status === 413) return renderRoom(res, signedIn, roomId.data, 413, { kind: 'error', text: `${file.name} is too large.` });
    if (![200, 201, 202].includes(reply.status)) {
      logger.warn({ status: reply.status }, 'knowledge upload failed');
      return renderRoom(res, signedIn, roomId.data, 503, { kind: 'error', text: 'The upload failed; try again shortly.' });
    }
    // Post/redirect/get: a reload of the room page never re-submits the file.
    res.redirect(303, `/knowledge/rooms/${roomId.data}`);
  });

  return router;
}
