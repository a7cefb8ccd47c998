// A photo cut out on a white page, as product shots and stickers are: the centre of a fixture
// photo (240 × 180, cover), cut by an ellipse and pasted on a 400 × 320 white page with a margin.
// PNG bytes; lossless, so the figure keeps its photographic texture.
import sharp from 'sharp';
import { fixture } from './paths';

export async function cutOutOnWhite(file: string): Promise<Buffer> {
  const photo = await sharp(fixture(file)).resize(240, 180, { fit: 'cover' }).png().toBuffer();
  const mask = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="180"><ellipse cx="120" cy="90" rx="110" ry="82"/></svg>',
  );
  const figure = await sharp(photo)
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer();
  return sharp({ create: { width: 400, height: 320, channels: 3, background: '#ffffff' } })
    .composite([{ input: figure, left: 80, top: 70 }])
    .png()
    .toBuffer();
}
