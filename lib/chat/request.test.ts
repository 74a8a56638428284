import { describe, expect, it } from 'vitest';
import { agentRunBodySchema, answerOptionsOf, chatBodySchema } from '@/lib/chat/request';
import { answerRunInputOf } from '@/lib/chat/run-for-user';

const signal = new AbortController().signal;

describe('answer request bodies', () => {
  it('build the same answer options whichever route they come from', () => {
    const filters = { tags: ['hr'], fields: { Client: 'ACME' } };
    const agent = agentRunBodySchema.parse({ question: 'Q?', mode: 'quick', style: 'bullet', filters });
    const chat = chatBodySchema.parse({
      id: 'c1',
      mode: 'quick',
      style: 'bullet',
      filters,
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Q?' }] }],
    });
    const a = answerRunInputOf({ kind: 'agent', value: agent }, { ownerId: 'u', signal });
    const c = answerRunInputOf({ kind: 'chat', value: chat }, { ownerId: 'u', signal });
    expect(a.options).toEqual(c.options);
    expect(a.options).toEqual({ mode: 'quick', style: 'bullet', filters });
    expect(a).toMatchObject({ ownerId: 'u', question: 'Q?', conversationId: null, persistConversation: false });
    expect(c).toMatchObject({ ownerId: 'u', question: 'Q?', conversationId: 'c1', persistConversation: true });
  });

  it('persist an agent run only when it names a conversation, and default mode and style', () => {
    const body = agentRunBodySchema.parse({ question: 'Q?', conversationId: 'abc' });
    expect(answerRunInputOf({ kind: 'agent', value: body }, { ownerId: 'u', signal })).toMatchObject({
      conversationId: 'abc',
      persistConversation: true,
      options: { mode: 'agent', style: 'concise' },
    });
    expect(answerOptionsOf(body)).not.toHaveProperty('filters');
  });

  it.each([
    ['a question over 20,000 characters', { question: 'x'.repeat(20_001) }, 'question'],
    ['a long conversation id', { question: 'q', conversationId: 'x'.repeat(65) }, 'conversationId'],
    ['an unknown key', { question: 'q', extra: 1 }, ''],
    ['too many tags', { question: 'q', filters: { tags: Array.from({ length: 21 }, () => 't') } }, 'filters.tags'],
    ['a long tag', { question: 'q', filters: { tags: ['x'.repeat(61)] } }, 'filters.tags.0'],
    ['a long mime type', { question: 'q', filters: { mimeTypes: ['x'.repeat(101)] } }, 'filters.mimeTypes.0'],
    [
      'too many field filters',
      { question: 'q', filters: { fields: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) } },
      'filters.fields',
    ],
    ['a long field value', { question: 'q', filters: { fields: { k: 'x'.repeat(501) } } }, 'filters.fields.k'],
  ])('refuse %s', (_label, body, path) => {
    const result = agentRunBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it.each([
    ['no messages', { id: 'c', messages: [] }],
    ['a long id', { id: 'x'.repeat(65), messages: [{ role: 'user', parts: [] }] }],
    ['a long part type', { id: 'c', messages: [{ role: 'user', parts: [{ type: 'x'.repeat(101) }] }] }],
    ['a long text', { id: 'c', messages: [{ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(20_001) }] }] }],
    ['too many messages', { id: 'c', messages: Array.from({ length: 501 }, () => ({ role: 'user', parts: [] })) }],
  ])('refuse a chat body with %s', (_label, body) => {
    expect(chatBodySchema.safeParse(body).success).toBe(false);
  });
});
