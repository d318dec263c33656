import { defineConfig } from 'drizzle-kit';

// Paths are relative to the repository root: run as `npm run db:generate`
// (drizzle-kit generate --config server/drizzle.config.ts). The migrations are applied at start-up by
// server/src/db/client.ts, on PGlite and PostgreSQL alike, so there is no migrate step to run here.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/schema/index.ts',
  out: './server/src/db/migrations',
  casing: 'snake_case',
});
