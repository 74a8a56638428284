import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Type checking and linting run in `npm test` (tsc, biome); the build does not repeat them.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // Native modules and packages that load workers or WASM at run time stay outside the server bundle.
  serverExternalPackages: [
    '@lancedb/lancedb',
    'apache-arrow',
    'better-sqlite3',
    '@prisma/adapter-better-sqlite3',
    '@prisma/adapter-pg',
    'pg',
    'unpdf',
    'pdfjs-dist',
    'mammoth',
    'exceljs',
    'linkedom',
    '@mozilla/readability',
    'yauzl',
    'file-type',
    'gpt-tokenizer',
    '@qdrant/js-client-rest',
  ],
  experimental: {
    // Uploads stream through route handlers (which have no body limit); this is only for server actions.
    serverActions: { bodySizeLimit: '1mb' },
  },
};

export default nextConfig;
