import { describe, expect, it } from 'vitest';
import { installArrayBufferTransfer } from './array-buffer-transfer';

describe('ArrayBuffer transfer on Node 20', () => {
  it('is installed: a buffer moves, keeping its bytes, and the source is detached', () => {
    installArrayBufferTransfer();
    const source = new Uint8Array([1, 2, 3, 4]).buffer;
    const moved = (source as ArrayBuffer & { transferToFixedLength(n?: number): ArrayBuffer }).transferToFixedLength();
    expect([...new Uint8Array(moved)]).toEqual([1, 2, 3, 4]);
    expect(source.byteLength).toBe(0);
  });

  it('cuts or zero-pads to the asked length and refuses a negative one', () => {
    const t = (b: ArrayBuffer, n?: number) =>
      (b as ArrayBuffer & { transferToFixedLength(n?: number): ArrayBuffer }).transferToFixedLength(n);
    expect([...new Uint8Array(t(new Uint8Array([1, 2, 3, 4]).buffer, 2))]).toEqual([1, 2]);
    expect([...new Uint8Array(t(new Uint8Array([1, 2]).buffer, 4))]).toEqual([1, 2, 0, 0]);
    expect(() => t(new Uint8Array([1]).buffer, -1)).toThrow(RangeError);
  });

  it('leaves a native method alone', () => {
    const native = () => new ArrayBuffer(0);
    const proto = { transfer: native, transferToFixedLength: native } as unknown as ArrayBuffer;
    installArrayBufferTransfer(proto);
    expect((proto as unknown as { transfer: unknown }).transfer).toBe(native);
  });
});
