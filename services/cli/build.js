// `npm run build [-- OUT_DIR]`: compile the services to JavaScript (services/tsconfig.build.json)
// and copy beside them the data files the code opens relative to its own location (protocol
// priors, the gateway's default registry, the migrations), so `node dist/services/main.js` runs
// exactly what `npm start` runs through tsx.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = resolve(root, process.argv[2] ?? 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
// Emit only: `npm run typecheck` (and CI) type-check; the build must not need a second pass.
const compiled = spawnSync(process.execPath, [tsc, '-p', resolve(root, 'services/tsconfig.build.json'), '--noCheck', '--outDir', out], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const ASSETS = ['migrations', 'services/research/data', 'services/gateway/gateway.config.json'];
for (const asset of ASSETS) cpSync(resolve(root, asset), resolve(out, asset), { recursive: true });
process.stdout.write(`Built ${out} — start it with: node ${out === resolve(root, 'dist') ? 'dist' : out}/services/main.js [service …]\n`);
