import { defineConfig } from 'vitest/config';

// One config for the whole repo: unit tests sit beside their code (services/**, shared/**),
// cross-service end-to-end tests live in test/. PGlite costs ~300 MB and 3-4 s per instance,
// so files run in forks with a bounded pool rather than one per core-thread.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['services/**/*.test.ts', 'shared/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    // Starting a stack (PGlite, migrations, six services) can take a while on a loaded 2-core box.
    hookTimeout: 180_000,
  },
});
