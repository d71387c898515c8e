// After `npm ci`: prepare the embedded database (PGlite's initdb and the migrations take several
// seconds) so the first `npm start` is as quick as every later one. Skipped when a DATABASE_URL
// is set or the sources are not there yet (a Docker layer that installs before copying them);
// a failure here never fails the install — `npm start` migrates anyway.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
if (process.env.DATABASE_URL || process.env.GATEHOUSE_SKIP_POSTINSTALL || !existsSync(main)) process.exit(0);
const result = spawnSync(process.execPath, ['--import', 'tsx', main, 'migrate'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (result.status !== 0) process.stderr.write('gatehouse: could not prepare the embedded database now; `npm start` will do it.\n');
process.exit(0);
