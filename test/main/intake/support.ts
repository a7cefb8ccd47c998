/** Shared bits for intake tests: options with short limits, error assertions, synthetic images. */
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { expect } from 'vitest';
import { AppError } from '../../../src-main/core';
import { intakeOptions, type IntakeMode, type IntakeOptions } from '../../../src-main/intake';
import type { ErrorCode } from '../../../src-main/shared/errors';

/** Options with test-sized timeouts and fast retries. */
export function testOptions(mode: IntakeMode = 'desktop', overrides: Partial<IntakeOptions> = {}): IntakeOptions {
  return intakeOptions(mode, {
    connectTimeoutMs: 2_000,
    totalTimeoutMs: 5_000,
    retryBaseDelayMs: 10,
    maxRetryDelayMs: 2_000,
    ...overrides,
  });
}

/** Awaits a rejection and checks it is an AppError with `code`; returns it for more checks. */
export async function expectAppError(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const err: unknown = await promise.then(
    () => new Error(`expected ${code}, but the promise resolved`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code, (err as Error).message).toBe(code);
  return err as AppError;
}

/** A solid-colour image in the given encoding. */
export function solid(
  width: number,
  height: number,
  channels: 3 | 4 = 3,
  background: sharp.Color = { r: 200, g: 100, b: 50 },
): sharp.Sharp {
  return sharp({ create: { width, height, channels, background } });
}

/** Left half red, right half blue: shows where rotation moved things. */
export async function halfRedHalfBlue(width: number, height: number): Promise<sharp.Sharp> {
  const blue = await solid(Math.floor(width / 2), height, 3, { r: 0, g: 0, b: 255 })
    .png()
    .toBuffer();
  return solid(width, height, 3, { r: 255, g: 0, b: 0 }).composite([{ input: blue, left: width - Math.floor(width / 2), top: 0 }]);
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A hand-built PNG whose IHDR declares `width × height` (8-bit RGB) followed by a tiny IDAT: a
 * decompression bomb's header without its payload. Valid CRCs, so only size limits stop it.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An animated PNG (APNG) built from two same-size PNGs: frame 1 is the default image (IDAT),
 * frame 2 follows in fdAT. Decoders without animation support see frame 1 only.
 */
export function apngOf(frame1: Buffer, frame2: Buffer): Buffer {
  const chunks = (png: Buffer): Array<{ type: string; data: Buffer }> => {
    const out: Array<{ type: string; data: Buffer }> = [];
    for (let i = 8; i < png.length;) {
      const len = png.readUInt32BE(i);
      out.push({ type: png.toString('ascii', i + 4, i + 8), data: png.subarray(i + 8, i + 8 + len) });
      i += 12 + len;
    }
    return out;
  };
  const a = chunks(frame1);
  const b = chunks(frame2);
  const ihdr = a.find((c) => c.type === 'IHDR')!.data;
  const fctl = (seq: number): Buffer => {
    const d = Buffer.alloc(26);
    d.writeUInt32BE(seq, 0);
    d.writeUInt32BE(ihdr.readUInt32BE(0), 4);
    d.writeUInt32BE(ihdr.readUInt32BE(4), 8);
    d.writeUInt16BE(1, 20); // delay 1/10 s
    d.writeUInt16BE(10, 22);
    return d;
  };
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0); // frames
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('acTL', actl),
    pngChunk('fcTL', fctl(0)),
  ];
  for (const c of a) if (c.type === 'IDAT') parts.push(pngChunk('IDAT', c.data));
  parts.push(pngChunk('fcTL', fctl(1)));
  let seq = 2;
  for (const c of b) {
    if (c.type !== 'IDAT') continue;
    const seqBuf = Buffer.alloc(4);
    seqBuf.writeUInt32BE(seq++, 0);
    parts.push(pngChunk('fdAT', Buffer.concat([seqBuf, c.data])));
  }
  parts.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** The RGB triple at (x, y). */
export function pixelAt(img: { data: Uint8Array; width: number }, x: number, y: number): [number, number, number] {
  const i = (y * img.width + x) * 3;
  return [img.data[i] ?? -1, img.data[i + 1] ?? -1, img.data[i + 2] ?? -1];
}

/**
 * A valid progressive greyscale JPEG of flat mid-grey, `width × height` px, sent in every scan the
 * format allows: one DC scan, then each of the 63 AC coefficients in its own first scan (Al 10)
 * and ten refinement scans (Al 9 … 0): 694 scans in all, when an ordinary progressive JPEG has
 * about 10. Each scan is a pass over every block, so the decode time grows with the scan count
 * while the file stays small (one bit per block per scan): a decode-time bomb.
 */
export function progressiveJpegOfManyScans(width: number, height: number): Buffer {
  const segment = (marker: number, data: number[]): Buffer =>
    Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  // Every block codes one symbol whose Huffman code is the single bit 0 (DC: difference 0; AC: end
  // of band), padded with 1s to a whole byte: no 0xFF byte, so no stuffing is needed.
  const scanData = Buffer.alloc(Math.ceil(blocks / 8));
  if (blocks % 8) scanData[scanData.length - 1] = 0xff >> (blocks % 8);
  const oneSymbolTable = (tableClassAndId: number, symbol: number): number[] => [
    tableClassAndId,
    1,
    ...new Array<number>(15).fill(0),
    symbol,
  ];
  const scans: Buffer[] = [];
  const scan = (ss: number, se: number, ah: number, al: number): void => {
    scans.push(segment(0xda, [1, 1, 0x00, ss, se, (ah << 4) | al]), scanData);
  };
  scan(0, 0, 0, 0);
  for (let k = 1; k <= 63; k++) {
    scan(k, k, 0, 10);
    for (let al = 9; al >= 0; al--) scan(k, k, al + 1, al);
  }
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // quantisation table 0: all 1
    segment(0xc2, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]), // SOF2, one component
    segment(0xc4, [...oneSymbolTable(0x00, 0x00), ...oneSymbolTable(0x10, 0x00)]), // DC 0: category 0; AC 0: EOB
    ...scans,
    Buffer.from([0xff, 0xd9]),
  ]);
}
