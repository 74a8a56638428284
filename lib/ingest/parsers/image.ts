export async function parseImage(_bytes: Uint8Array, _o: unknown): Promise<never> { throw new Error('todo'); }
