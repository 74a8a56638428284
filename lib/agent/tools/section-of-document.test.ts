import { describe, expect, it } from 'vitest';
import { detectReferences } from './references';

describe('a section of another document', () => {
  it('"defined in Section 4.2 of the Integration Guide" names both the section and its document', () => {
    const refs = detectReferences('The retry policy is defined in Section 4.2 of the Integration Guide.');
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ type: 'section', target: '4.2', inDocument: 'Integration Guide' });
  });
  it('a bare section stays in the same document', () => {
    const refs = detectReferences('The audit requirements are described in Section 4.2.');
    expect(refs[0]?.inDocument).toBeUndefined();
  });
});
