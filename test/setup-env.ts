import { inject } from 'vitest';

// Workers see the database and data folder the global set-up migrated.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.DATA_DIR = inject('dataDir');

// In-process requests carry no socket address, so every test file's sign-ins share the "unknown address" limit
// (and the rate-limit rows outlive a file): a suite signing in many users within a minute would hit it. Tests of
// the limits set their own values in beforeAll (this file runs before each test file).
process.env.RATE_LIMIT_SIGN_IN_PER_MINUTE = '1000';
process.env.RATE_LIMIT_SIGN_UP_PER_MINUTE = '1000';
