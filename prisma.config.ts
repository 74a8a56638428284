// For users with the normal Prisma CLI: `npx prisma migrate deploy --schema prisma/postgres/schema.prisma`.
// DocuChat itself migrates offline with scripts/migrate.mjs (no engine download needed).
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL ?? 'file:./data/docuchat.db';
const isPostgres = /^postgres(ql)?:/.test(url);

export default defineConfig({
  schema: isPostgres ? 'prisma/postgres/schema.prisma' : 'prisma/sqlite/schema.prisma',
  migrations: { path: isPostgres ? 'prisma/postgres/migrations' : 'prisma/sqlite/migrations' },
  datasource: { url },
});
