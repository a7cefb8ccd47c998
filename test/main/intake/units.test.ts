import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffContent } from '../../../src-main/intake';
import { readJpegSize, readPngSize } from '../../../src-main/intake/header-size';
import { urlFileName } from '../../../src-main/intake/input';
import { countJpegScans, MAX_JPEG_SCANS } from '../../../src-main/intake/jpeg-scans';
import { describeUrl, formatBytes } from '../../../src-main/intake/describe';
import { backoffDelayMs, isRetryableStatus, isTransientNetworkError, parseRetryAfterMs } from '../../../src-main/intake/retry-policy';
import { fixture } from '../../helpers/paths';
import { pngDeclaring, progressiveJpegOfManyScans, solid } from './support';

describe('sniffContent', () => {
  it.each([
    ['jpeg', [0xff, 0xd8, 0xff, 0xe0]],
    ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['gif', [...Buffer.from('GIF89a')]],
    ['webp', [...Buffer.from('RIFF\0\0\0\0WEBPVP8 ')]],
    ['bmp', [...Buffer.from('BM\0\0')]],
    ['tiff', [0x49, 0x49, 0x2a, 0x00]],
    ['pdf', [...Buffer.from('%PDF-1.7')]],
    ['avif', [...Buffer.from('\0\0\0\x1cftypavif')]],
    ['heif', [...Buffer.from('\0\0\0\x18ftypheic')]],
    ['jpeg-xl', [0xff, 0x0a, 0xfa, 0x1f]],
    ['jpeg-2000', [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a, 0x00, 0x00]],
    ['jpeg-2000', [0xff, 0x4f, 0xff, 0x51, 0x00, 0x2f]],
    ['svg', [...Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>')]],
    ['html', [...Buffer.from('\n<!doctype html><title>404</title>')]],
    ['xml', [...Buffer.from('<?xml version="1.0"?><Error/>')]],
    ['json', [...Buffer.from('{"error":"nope"}')]],
    ['empty', []],
    ['unknown', [1, 2, 3, 4]],
  ])('%s', (type, bytes) => {
    expect(sniffContent(Uint8Array.from(bytes))).toBe(type);
  });
});

describe('header sizes without decoding', () => {
  it('reads every fixture JPEG and PNG header', () => {
    expect(readJpegSize(readFileSync(fixture('cat_chelsea.jpg')))).toEqual({ width: 451, height: 300 });
    expect(readJpegSize(readFileSync(fixture('tom_cruise.jpg')))).toEqual({ width: 565, height: 800 });
    expect(readPngSize(readFileSync(fixture('cheese_clipart.png')))).toEqual({ width: 300, height: 225 });
  });

  it('reads a progressive JPEG (SOF2) and a hand-built PNG', async () => {
    expect(readJpegSize(await solid(123, 77).jpeg({ progressive: true }).toBuffer())).toEqual({ width: 123, height: 77 });
    expect(readPngSize(pngDeclaring(100_000, 100_000))).toEqual({ width: 100_000, height: 100_000 });
  });

  it('returns null for damaged headers', () => {
    expect(readJpegSize(Uint8Array.from([0xff, 0xd8, 0xff]))).toBeNull();
    expect(readJpegSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
    expect(readJpegSize(Uint8Array.from([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
    expect(readPngSize(pngDeclaring(0, 10))).toBeNull();
    expect(readPngSize(pngDeclaring(10, 10).subarray(0, 20))).toBeNull();
  });
});

describe('JPEG scan count without decoding', () => {
  it('counts 1 for a baseline JPEG, the scans of a progressive one, and stops past the limit', async () => {
    expect(countJpegScans(readFileSync(fixture('cat_chelsea.jpg')))).toBe(1);
    expect(countJpegScans(readFileSync(fixture('family_six_faces.jpg')))).toBe(11); // a progressive photo
    expect(countJpegScans(await solid(100, 70).jpeg({ progressive: true }).toBuffer())).toBe(10); // libjpeg's default script
    expect(countJpegScans(progressiveJpegOfManyScans(64, 64), 1_000)).toBe(694);
    expect(countJpegScans(progressiveJpegOfManyScans(64, 64))).toBe(MAX_JPEG_SCANS + 1);
  });

  it('counts on past stray bytes before a marker, which libjpeg skips with a warning', () => {
    const bomb = progressiveJpegOfManyScans(64, 64);
    const dht = bomb.indexOf(Buffer.from([0xff, 0xc4])); // after SOF2: the header still reads
    const stray = Buffer.concat([bomb.subarray(0, dht), Buffer.from([0x00, 0x42]), bomb.subarray(dht)]);
    expect(readJpegSize(stray)).toEqual({ width: 64, height: 64 });
    expect(countJpegScans(stray, 1_000)).toBe(694);
  });
});

describe('retry policy', () => {
  it('retries 5xx (not 501/505), 429 and 408; not other 4xx', () => {
    expect([500, 502, 503, 504, 429, 408].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 410, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  it('treats resets as transient and refusals/DNS misses as permanent', () => {
    expect(isTransientNetworkError({ code: 'ECONNRESET' })).toBe(true);
    expect(isTransientNetworkError({ code: 'UND_ERR_SOCKET' })).toBe(true);
    expect(isTransientNetworkError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isTransientNetworkError({ code: 'ENOTFOUND' })).toBe(false);
    expect(isTransientNetworkError(new Error('x'))).toBe(false);
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelayMs(0, 250, 5000, () => 0)).toBe(125);
    expect(backoffDelayMs(0, 250, 5000, () => 1)).toBe(250);
    expect(backoffDelayMs(3, 250, 5000, () => 1)).toBe(2000);
    expect(backoffDelayMs(10, 250, 5000, () => 1)).toBe(5000);
  });
});

describe('names in responses and messages', () => {
  it('takes the decoded last path segment as the file name', () => {
    expect(urlFileName(new URL('https://x.example/a/b/My%20Cat.jpg?size=large#top'))).toBe('My Cat.jpg');
    expect(urlFileName(new URL('https://x.example/photos/'))).toBe('image');
    expect(urlFileName(new URL('https://x.example/%E0%A4%A.jpg'))).toBe('%E0%A4%A.jpg');
  });

  it('shows URLs without credentials and shortens long ones', () => {
    expect(describeUrl(new URL('https://u:p@x.example/a.jpg'))).toBe('https://x.example/a.jpg');
    expect(describeUrl(new URL(`https://x.example/${'a'.repeat(500)}`)).length).toBeLessThanOrEqual(200);
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
  });
});
