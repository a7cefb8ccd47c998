/**
 * A JPEG with a comment segment (COM, 0xFFFE) after SOI: the same pixels, different bytes (and so
 * a different sha256), for benches that must keep de-duplication from helping.
 */
export function uniqueJpeg(bytes: Buffer, i: number): Buffer {
  const text = Buffer.from(`picscan bench copy ${i}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([bytes.subarray(0, 2), com, text, bytes.subarray(2)]);
}
