// npm run user -- create <email> [--password <pw>] [--name <name>]
// npm run user -- reset-password <email> [--password <pw>]
// No email server exists: this is how an operator creates accounts and resets passwords.
// Without --password a strong one is generated and printed once.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createUser, resetPassword } from '@/lib/auth/users';
import { disconnectDb, ensureDbReady } from '@/lib/db/lifecycle';
import { migrateFirst } from './migrate-first';

const usage =
  'usage: npm run user -- create <email> [--password <pw>] [--name <name>]\n       npm run user -- reset-password <email> [--password <pw>]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { password: { type: 'string' }, name: { type: 'string' } },
  });
  const [command, rawEmail] = positionals;
  const email = z.email().safeParse(rawEmail?.trim().toLowerCase());
  if (!command || !email.success || !['create', 'reset-password'].includes(command)) {
    console.error(usage);
    return 2;
  }
  const generated = values.password === undefined;
  const password = values.password ?? crypto.randomBytes(12).toString('base64url');
  if (password.length < 8) {
    console.error('The password must have at least 8 characters.');
    return 2;
  }
  migrateFirst();
  await ensureDbReady();
  if (command === 'create') {
    const user = await createUser({ email: email.data, password, name: values.name ?? email.data });
    console.log(`Created user ${user.email} (${user.id}).`);
  } else {
    await resetPassword({ email: email.data, password });
    console.log(`Password reset for ${email.data}; their existing sessions were signed out.`);
  }
  if (generated) console.log(`Password: ${password}`);
  return 0;
}

main()
  .then(async (code) => {
    await disconnectDb();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await disconnectDb();
    process.exit(1);
  });
