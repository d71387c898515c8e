import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './services/knowledge/src/store/schema.ts',
  out: './migrations/knowledge',
});
