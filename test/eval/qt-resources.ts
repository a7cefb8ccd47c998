// Reads the files of a compiled Qt resource bundle (`.rcc`, "qres" format versions 1–3), as
// GCompris ships its pictures (Debian gcompris-qt-data). Layout (big-endian): a 20-byte header
// ("qres", version, offsets of the tree, the data and the names); tree entries of 14 bytes
// (version 1) or 22 (versions 2–3: + a modification time): name offset u32, flags u16, then for a
// directory child count u32 and first child u32, for a file country u16, language u16 and data
// offset u32. A name is u16 length, u32 hash, UTF-16BE characters; data is u32 length then the
// bytes, zlib-compressed after a u32 size when flag 1 is set (flag 4, zstd, is not read here).
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

const FLAG = { compressed: 1, directory: 2, zstd: 4 } as const;

/** Every file of the bundle: its path inside the bundle → bytes (zstd-compressed files are left out). */
export function readQtResources(file: string): Map<string, Uint8Array> {
  const b = readFileSync(file);
  if (b.toString('latin1', 0, 4) !== 'qres') throw new Error(`${file}: not a Qt resource bundle`);
  const version = b.readUInt32BE(4);
  const [tree, data, names] = [b.readUInt32BE(8), b.readUInt32BE(12), b.readUInt32BE(16)];
  const entrySize = version === 1 ? 14 : 22;
  const nameAt = (offset: number): string => {
    const n = b.readUInt16BE(names + offset);
    return Buffer.from(b.subarray(names + offset + 6, names + offset + 6 + 2 * n))
      .swap16()
      .toString('utf16le');
  };
  const out = new Map<string, Uint8Array>();
  const walk = (node: number, prefix: string): void => {
    const at = tree + node * entrySize;
    const flags = b.readUInt16BE(at + 4);
    const name = node === 0 ? '' : nameAt(b.readUInt32BE(at));
    const path = prefix ? `${prefix}/${name}` : name;
    if (flags & FLAG.directory) {
      const [count, first] = [b.readUInt32BE(at + 6), b.readUInt32BE(at + 10)];
      for (let i = 0; i < count; i++) walk(first + i, path);
      return;
    }
    if (flags & FLAG.zstd) return;
    const offset = data + b.readUInt32BE(at + 10);
    const bytes = b.subarray(offset + 4, offset + 4 + b.readUInt32BE(offset));
    out.set(path, new Uint8Array(flags & FLAG.compressed ? inflateSync(bytes.subarray(4)) : bytes));
  };
  walk(0, '');
  return out;
}
