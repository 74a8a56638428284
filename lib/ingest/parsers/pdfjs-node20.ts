/**
 * pdf.js (unpdf 1.7's build) calls `ArrayBuffer.prototype.transferToFixedLength` when it hands a font to the
 * renderer side (`compileFontInfo`), which Node 20 lacks (Node 21+ has it). There, every operator list stopped at
 * the first use of each new font ("ignoring errors during GetOperatorList"): images and drawings after it were
 * missing from the visual page flags, the list differed between the first and a second call for the same page,
 * and a page rendered for OCR lost what came after its first text. This adds the method (a copy instead of a
 * transfer, which is all pdf.js needs: it never touches the old buffer again) where it is missing.
 */
export function ensureTransferToFixedLength(): void {
  const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (length?: number) => ArrayBuffer };
  if (typeof proto.transferToFixedLength === 'function') return;
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length?: number): ArrayBuffer {
      const size = length ?? this.byteLength;
      const out = new ArrayBuffer(size);
      new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return out;
    },
  });
}
