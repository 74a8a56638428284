import { inject } from 'vitest';

// Workers see the database and data folder the global set-up migrated.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.DATA_DIR = inject('dataDir');
