import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './services/auth/src/store/schema.ts',
  out: './migrations/auth',
});
