import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // A separate build folder can be chosen (e.g. for a second checkout's tests running beside a dev server).
  distDir: process.env.NEXT_DIST_DIR || '.next',
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
    '@embedpdf/pdfium',
    'mammoth',
    'exceljs',
    'linkedom',
    '@mozilla/readability',
    'yauzl',
    'file-type',
    'gpt-tokenizer',
    '@qdrant/js-client-rest',
    '@napi-rs/canvas',
    // The part-of-speech model of the gate's admission check (3.8 MB of data): loaded from node_modules, not bundled.
    'wink-nlp',
    'wink-eng-lite-web-model',
  ],
  async headers() {
    const common = [
      { key: 'X-Content-Type-Options', value: 'nosniff' },
      { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
      { key: 'X-Frame-Options', value: 'DENY' },
    ];
    return [
      // Everything, static files included, is never MIME-sniffed; HSTS whenever the app is reached over HTTPS
      // (a TLS-terminating proxy sets x-forwarded-proto).
      { source: '/:path*', headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }] },
      {
        source: '/:path*',
        has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }],
        headers: [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }],
      },
      // JSON and streams: nothing to render, nothing to frame.
      {
        source: '/api/:path*',
        headers: [...common, { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" }],
      },
      {
        source: '/share/:path*',
        headers: [
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
        ],
      },
    ];
  },
  experimental: {
    // Uploads stream through route handlers (which have no body limit); this is only for server actions.
    serverActions: { bodySizeLimit: '1mb' },
  },
};

export default nextConfig;
