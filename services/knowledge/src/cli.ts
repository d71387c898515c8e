import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseCommandArgs, requiredFlag } from '../../../shared/cli-args.ts';
import { CliUsageError, type CliCommand } from '../../../shared/cli.ts';
import { ingestFile, UnsupportedFileError } from './ingest/ingest-file.ts';
import { createProgressBar } from './ingest/progress-bar.ts';
import { createKnowledgeStore } from './store/knowledge-store.ts';

interface IngestArgs {
  readonly paths: string[];
  readonly room: string;
  readonly owner: string;
  readonly notebook: boolean;
}

function parseIngestArgs(argv: readonly string[]): IngestArgs {
  const { values, positionals } = parseCommandArgs(argv, { room: { type: 'string' }, owner: { type: 'string' }, notebook: { type: 'boolean' } });
  if (!positionals.length) throw new CliUsageError('give at least one file or folder');
  return { paths: positionals, room: requiredFlag(values, 'room'), owner: requiredFlag(values, 'owner'), notebook: values.notebook ?? false };
}

/** Files under the given paths (folders recursively, dot-files skipped), in a stable order. */
function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) if (!name.startsWith('.')) walk(join(p, name));
    } else if (st.isFile()) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

const kbIngest: CliCommand = {
  name: 'kb ingest',
  usage: 'gatehouse kb ingest PATH… --room NAME --owner EMAIL [--notebook]',
  summary: "Ingest files (txt, md, html, pdf, docx, images) into the owner's room, creating it if needed; SHA-256 dedupe skips files already there.",
  async run(argv, deps) {
    const args = parseIngestArgs(argv);
    let files: string[];
    try {
      files = expandPaths(args.paths);
    } catch (err) {
      throw new CliUsageError(`cannot read ${args.paths.join(', ')}: ${(err as Error).message}`);
    }
    const db = await deps.openDb();
    try {
      const store = createKnowledgeStore(db);
      const userId = await store.rooms.findUserIdByEmail(args.owner);
      if (!userId) {
        deps.stderr.write(`No user with e-mail ${args.owner} (create one with \`gatehouse users add\`).\n`);
        return 1;
      }
      const room = await store.rooms.ensureRoom(args.room, userId, args.notebook ? 'notebook' : 'workspace');
      const sizes = files.map((f) => statSync(f).size);
      const totalBytes = sizes.reduce((a, b) => a + b, 0);
      const bar = createProgressBar(deps.stderr, totalBytes, files.length);
      const counts = { indexed: 0, duplicate: 0, failed: 0 };
      const started = Date.now();
      let done = 0;
      for (const [i, file] of files.entries()) {
        const name = basename(file);
        bar.update(done, name);
        try {
          const result = await ingestFile(store, {
            roomId: room.id,
            userId,
            name,
            bytes: readFileSync(file),
            onProgress: (_stage, fraction) => bar.update(done + sizes[i] * fraction, name),
          });
          if (result.status === 'failed') counts.failed++;
          else if (!result.created) counts.duplicate++;
          else counts.indexed++;
          const what = result.status === 'failed' ? `failed: ${result.error}` : result.created ? `${result.chunks} chunks, ${result.entities} entities` : 'already in room';
          bar.finishFile(`${name}: ${what}`);
        } catch (err) {
          counts.failed++;
          bar.finishFile(`${name}: ${err instanceof UnsupportedFileError ? err.message : `failed: ${(err as Error).message}`}`);
        }
        done += sizes[i];
        bar.update(done, '');
      }
      bar.end();
      const seconds = (Date.now() - started) / 1000;
      deps.stdout.write(
        `Room "${room.name}" (${room.id}): ${counts.indexed} indexed, ${counts.duplicate} already present, ${counts.failed} failed; ${(totalBytes / 1_048_576).toFixed(2)} MB in ${seconds.toFixed(1)} s.\n`,
      );
      return counts.failed ? 1 : 0;
    } finally {
      await db.close();
    }
  },
};

export const commands: CliCommand[] = [kbIngest];
