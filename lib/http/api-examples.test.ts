import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_EXAMPLES } from '@/lib/http/api-examples';
import { readmeApiExamples } from '@/lib/http/readme-examples';

describe('the API examples', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

  it("on the reference page are the README's, which e2e/api-readme.spec.ts runs", () => {
    expect(API_EXAMPLES).toEqual(readmeApiExamples(readme));
  });

  it('cover asking, streaming, uploading, sharing, errors and MCP', () => {
    const all = API_EXAMPLES.map((e) => e.code).join('\n');
    for (const route of ['/api/agent/run', '/api/agent/stream', '/api/documents/upload', '/api/shares', '/api/mcp'])
      expect(all).toContain(route);
    expect(all).toContain('application/x-ndjson');
    expect(all).toContain('/api/search');
  });

  it('reads the section and the sentence before each block', () => {
    const text =
      '# X\n\n## Use the API\n\nIntro.\n\nDo a thing:\n\n```sh\necho 1\n```\n\n## Next\n\n```sh\necho 2\n```\n';
    expect(readmeApiExamples(text)).toEqual([{ title: 'Do a thing', code: 'echo 1' }]);
  });
});
