/**
 * `npm run bench` runs every benchmark (`bench/<name>/main.ts`) one after another, each in its
 * own process; `npm run bench -- auth research` runs just those.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const all = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(`${root}${d.name}/main.ts`))
  .map((d) => d.name)
  .sort();
const [first, ...rest] = process.argv.slice(2);
const chosen = first ? [first, ...rest] : all;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`Unknown benchmark "${name}". Available: ${all.join(', ')}`);
    process.exit(2);
  }
}
for (const name of chosen) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `${root}${name}/main.ts`], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
