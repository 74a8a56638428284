/**
 * `ArrayBuffer.prototype.transfer` / `transferToFixedLength` (ES2024) for Node 20, which lacks them. pdf.js 5 calls
 * `transferToFixedLength` when it compiles a font for painting (`compileFontInfo`), so on Node 20 every
 * `getOperatorList` / render of a page that uses a font failed part-way ("o.transferToFixedLength is not a
 * function") and dropped the operators after the font: images drawn after text were missing from renders (OCR,
 * visual pages) and from the image detection that decides which pages are scans or figures. Installed only when
 * the runtime has no native method; semantics as specified: the source buffer is detached, the result holds its
 * bytes, cut or zero-padded to `newLength`.
 */

function transferred(source: ArrayBuffer, newLength: number | undefined): ArrayBuffer {
  const length = newLength === undefined ? source.byteLength : Math.trunc(Number(newLength));
  if (!Number.isFinite(length) || length < 0) throw new RangeError(`Invalid array buffer length: ${newLength}`);
  // structuredClone with a transfer list detaches `source`, as the native methods do.
  const moved = structuredClone(source, { transfer: [source] });
  if (length === moved.byteLength) return moved;
  const out = new ArrayBuffer(length);
  new Uint8Array(out).set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)));
  return out;
}

export function installArrayBufferTransfer(proto: ArrayBuffer = ArrayBuffer.prototype): void {
  for (const name of ['transfer', 'transferToFixedLength'] as const) {
    if (typeof (proto as unknown as Record<string, unknown>)[name] === 'function') continue;
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      enumerable: false,
      value: function (this: ArrayBuffer, newLength?: number): ArrayBuffer {
        return transferred(this, newLength);
      },
    });
  }
}

installArrayBufferTransfer();
