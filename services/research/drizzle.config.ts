import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './services/research/src/store/schema.ts',
  out: './migrations/research',
});
