// Decoding skips the colour transform only for sRGB profiles, where it changes nothing.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isSrgbProfile, profileDescription } from '../../../src-main/inference/icc';
import { decodeImage } from '../../../src-main/inference/image';
import { fixture } from '../../helpers/paths';

const profileOf = async (file: string): Promise<Uint8Array> => (await sharp(readFileSync(fixture(file))).metadata()).icc!;

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
});
