import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './services/payments/src/store/schema.ts',
  out: './migrations/payments',
});
