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
