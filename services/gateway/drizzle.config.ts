import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './services/gateway/src/store/schema.ts',
  out: './migrations/gateway',
});
