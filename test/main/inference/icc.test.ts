// Decoding skips the colour transform only for sRGB profiles, where it changes nothing.
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isSrgbProfile, MAX_DESCRIPTION_CHARS, profileDescription } from '../../../src-main/inference/icc';
import { decodeImage } from '../../../src-main/inference/image';
import { fixture } from '../../helpers/paths';

const profileOf = async (file: string): Promise<Uint8Array> => (await sharp(readFileSync(fixture(file))).metadata()).icc!;

/** `profile` with its `desc` tag replaced by a v2 `desc` tag holding `text`, appended at the end. */
function withDescription(profile: Uint8Array, text: string): Buffer {
  const ascii = Buffer.from(`${text}\0`, 'latin1');
  const tag = Buffer.alloc(12 + ascii.length + 8 + 67); // signature, reserved, count, text; empty Unicode and ScriptCode parts
  tag.write('desc', 0, 'latin1');
  tag.writeUInt32BE(ascii.length, 8);
  ascii.copy(tag, 12);
  const at = Math.ceil(profile.length / 4) * 4;
  const out = Buffer.alloc(at + tag.length);
  out.set(profile);
  tag.copy(out, at);
  out.writeUInt32BE(out.length, 0);
  let entry = 132;
  while (out.toString('latin1', entry, entry + 4) !== 'desc') entry += 12;
  expect(entry).toBeLessThan(132 + 12 * out.readUInt32BE(128));
  out.writeUInt32BE(at, entry + 4);
  out.writeUInt32BE(tag.length, entry + 8);
  return out;
}

/** A JPEG carrying `profile` in APP2 ICC_PROFILE segments (as many as it needs) right after SOI. */
function jpegWithProfile(jpeg: Buffer, profile: Buffer): Buffer {
  const perSegment = 65_519; // 65 535 − the length field − "ICC_PROFILE\0" and the sequence bytes
  const count = Math.ceil(profile.length / perSegment);
  const segments = Array.from({ length: count }, (_, i) => {
    const data = profile.subarray(i * perSegment, (i + 1) * perSegment);
    const head = Buffer.alloc(18);
    head.writeUInt16BE(0xffe2, 0);
    head.writeUInt16BE(16 + data.length, 2);
    head.write('ICC_PROFILE\0', 4, 'latin1');
    head[16] = i + 1;
    head[17] = count;
    return Buffer.concat([head, data]);
  });
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** A minimal ICC v2 grey display profile (header, `desc`, `wtpt`, `kTRC`) whose tone curve is the pure gamma `gamma`. */
function greyProfile(name: string, gamma: number): Buffer {
  const desc = Buffer.alloc(12 + name.length + 1 + 8 + 3 + 67); // ASCII part, then empty Unicode and ScriptCode parts
  desc.write('desc', 0, 'latin1');
  desc.writeUInt32BE(name.length + 1, 8);
  desc.write(name, 12, 'latin1');
  const wtpt = Buffer.alloc(20);
  wtpt.write('XYZ ', 0, 'latin1');
  [0.9642, 1, 0.8249].forEach((v, i) => wtpt.writeInt32BE(Math.round(v * 65536), 8 + 4 * i)); // D50
  const trc = Buffer.alloc(16);
  trc.write('curv', 0, 'latin1');
  trc.writeUInt32BE(1, 8);
  trc.writeUInt16BE(Math.round(gamma * 256), 12);
  const tags: Array<[string, Buffer]> = [
    ['desc', desc],
    ['wtpt', wtpt],
    ['kTRC', trc],
  ];
  const pad = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  const header = Buffer.alloc(128 + 4 + 12 * tags.length);
  header.writeUInt32BE(0x02100000, 8);
  header.write('mntrGRAYXYZ ', 12, 'latin1');
  header.write('acsp', 36, 'latin1');
  [0.9642, 1, 0.8249].forEach((v, i) => header.writeInt32BE(Math.round(v * 65536), 68 + 4 * i));
  header.writeUInt32BE(tags.length, 128);
  let at = header.length;
  tags.forEach(([sig, data], i) => {
    header.write(sig, 132 + 12 * i, 'latin1');
    header.writeUInt32BE(at, 136 + 12 * i);
    header.writeUInt32BE(data.length, 140 + 12 * i);
    at += pad(data).length;
  });
  const out = Buffer.concat([header, ...tags.map(([, data]) => pad(data))]);
  out.writeUInt32BE(out.length, 0);
  return out;
}

/** `png` with an iCCP chunk holding `profile` right after IHDR. */
function pngWithProfile(png: Buffer, profile: Buffer): Buffer {
  const data = Buffer.concat([Buffer.from('grey\0\0', 'latin1'), deflateSync(profile)]); // name, NUL, method 0 (zlib)
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('iCCP', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  const ihdrEnd = 8 + 8 + 13 + 4; // signature, IHDR length + type, IHDR data, CRC
  return Buffer.concat([png.subarray(0, ihdrEnd), head, data, crc, png.subarray(ihdrEnd)]);
}

describe('embedded ICC profiles', () => {
  it('reads the description of v2 profiles and recognises sRGB ones', async () => {
    expect(profileDescription(await profileOf('biden_portrait.jpg'))).toBe('sRGB IEC61966-2.1');
    expect(isSrgbProfile(await profileOf('biden_portrait.jpg'))).toBe(true);
    expect(profileDescription(await profileOf('tom_cruise.jpg'))).toBe('c2'); // the compact sRGB profile
    expect(isSrgbProfile(await profileOf('tom_cruise.jpg'))).toBe(true);
    expect(profileDescription(await profileOf('rocket_launchpad.jpg'))).toBe('Adobe RGB (1998)');
    expect(isSrgbProfile(await profileOf('rocket_launchpad.jpg'))).toBe(false);
    expect(isSrgbProfile(new Uint8Array(40))).toBe(false);
  });

  it.each([
    ['tom_cruise.jpg', true],
    ['obama_portrait.jpg', true],
    ['rocket_launchpad.jpg', false],
  ])('decodes %s to the colour-managed pixels (profile ignorable: %s)', async (file, ignorable) => {
    const bytes = readFileSync(fixture(file));
    const img = await decodeImage(bytes, { maxPixels: 50_000_000 });
    const managed = await sharp(bytes).rotate().toColourspace('srgb').raw().toBuffer();
    const raw = await sharp(bytes, { ignoreIcc: true }).rotate().toColourspace('srgb').raw().toBuffer();
    expect(Buffer.compare(Buffer.from(img.data), managed)).toBe(0);
    expect(Buffer.compare(managed, raw) === 0).toBe(ignorable); // Adobe RGB really needs the transform
  });

  it("applies a profile named sRGB whose tone curve is linear (Krita's sRGB-elle-V4-g10; was skipped, the photo read far too dark)", async () => {
    const photo = readFileSync(fixture('cat_chelsea.jpg'));
    // biden_portrait's sRGB profile with its shared 1 024-entry tone curve made a pure gamma of 1.0:
    // count 1, then the gamma as u8Fixed8 (ICC.1 'curv').
    const linear = Buffer.from(await profileOf('biden_portrait.jpg'));
    const view = new DataView(linear.buffer, linear.byteOffset, linear.byteLength);
    for (let i = 0; i < view.getUint32(128); i++) {
      const entry = 132 + i * 12;
      if (!linear.toString('latin1', entry, entry + 4).endsWith('TRC')) continue;
      const at = view.getUint32(entry + 4);
      expect(linear.toString('latin1', at, at + 4)).toBe('curv');
      view.setUint32(at + 8, 1);
      view.setUint16(at + 12, 0x0100);
    }
    const profile = withDescription(linear, 'sRGB-elle-V4-g10.icc');
    expect(isSrgbProfile(profile)).toBe(false);
    expect(isSrgbProfile(await profileOf('biden_portrait.jpg'))).toBe(true); // its untouched curve is sRGB's
    const bytes = jpegWithProfile(photo, profile);
    const img = await decodeImage(bytes, { maxPixels: 50_000_000 });
    const managed = await sharp(bytes).rotate().toColourspace('srgb').raw().toBuffer();
    const raw = await sharp(bytes, { ignoreIcc: true }).rotate().toColourspace('srgb').raw().toBuffer();
    expect(Buffer.compare(managed, raw)).not.toBe(0);
    expect(Buffer.compare(Buffer.from(img.data), managed)).toBe(0);
  });

  it.each([
    ['RGB', false],
    ['RGB + alpha', true],
  ])('decodes a 16-bit %s PNG with an Adobe RGB profile to the pixels of its 8-bit JPEG (was desaturated)', async (_, alpha) => {
    const jpeg = readFileSync(fixture('rocket_launchpad.jpg'));
    // The JPEG's own values (each × 257) and profile, 16 bits per channel, alpha fully opaque.
    const png16 = await (alpha ? sharp(jpeg).ensureAlpha() : sharp(jpeg)).toColourspace('rgb16').keepIccProfile().png().toBuffer();
    const meta = await sharp(png16).metadata();
    expect([meta.space, meta.depth, meta.channels, profileDescription(meta.icc!)]).toEqual([
      'rgb16',
      'ushort',
      alpha ? 4 : 3,
      'Adobe RGB (1998)',
    ]);
    const want = await decodeImage(jpeg, { maxPixels: 50_000_000 });
    const got = await decodeImage(png16, { maxPixels: 50_000_000 });
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    let worst = 0;
    for (let i = 0; i < want.data.length; i++) worst = Math.max(worst, Math.abs(got.data[i]! - want.data[i]!));
    expect(worst).toBeLessThanOrEqual(1); // 0..255 per channel
  });

  it('applies the grey profile of a 16-bit greyscale PNG as of its 8-bit twin (was ignored: linear mid-grey 128 stayed 128, not 188)', async () => {
    const profile = greyProfile('Gray Gamma 1.0', 1);
    const photo = readFileSync(fixture('cameraman_bw.png'));
    const png8 = pngWithProfile(await sharp(photo).toColourspace('b-w').png().toBuffer(), profile);
    const png16 = pngWithProfile(await sharp(photo).toColourspace('grey16').png().toBuffer(), profile);
    expect((await sharp(png16).metadata()).space).toBe('grey16');
    const plain = await decodeImage(photo, { maxPixels: 50_000_000 });
    const want = await decodeImage(png8, { maxPixels: 50_000_000 });
    const got = await decodeImage(png16, { maxPixels: 50_000_000 });
    expect(Buffer.compare(Buffer.from(want.data), Buffer.from(plain.data))).not.toBe(0); // the profile matters
    let worst = 0;
    for (let i = 0; i < want.data.length; i++) worst = Math.max(worst, Math.abs(got.data[i]! - want.data[i]!));
    expect(worst).toBeLessThanOrEqual(1); // 0..255 per channel
  });

  it('decodes a photo whose profile claims a description of 200 000 characters (was refused as damaged)', async () => {
    const photo = readFileSync(fixture('cat_chelsea.jpg'));
    const p3 = (await sharp(await sharp(photo).withIccProfile('p3').jpeg().toBuffer()).metadata()).icc!;
    for (const name of ['Display P3', 'sRGB IEC61966-2.1']) {
      const profile = withDescription(p3, `${name} ${'x'.repeat(200_000)}`);
      expect(profileDescription(profile)).toBe(`${name} ${'x'.repeat(MAX_DESCRIPTION_CHARS - name.length - 1)}`);
      const bytes = jpegWithProfile(photo, profile);
      const img = await decodeImage(bytes, { maxPixels: 50_000_000 });
      expect([img.width, img.height]).toEqual([451, 300]);
      const managed = await sharp(bytes).rotate().toColourspace('srgb').raw().toBuffer();
      expect(Buffer.compare(Buffer.from(img.data), managed) === 0).toBe(name === 'Display P3'); // sRGB: not applied
    }
  });
});
