// A group photo composed from the people crops (test/fixtures/people), for benches that need many
// faces in one image: `count` faces in `columns` columns of square tiles on grey, as JPEG q90.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { repoRoot } from './paths';

/** Side of one face tile, px. */
export const GROUP_TILE_PX = 160;

/** JPEG bytes of `count` people crops (the Human library's, in name order) in a grid of `columns`. */
export async function composedGroupPhoto(count: number, columns: number): Promise<Buffer> {
  const dir = join(repoRoot, 'test', 'fixtures', 'people');
  const crops = readdirSync(dir)
    .filter((f) => /-human-.*\.jpg$/.test(f))
    .slice(0, count);
  const tiles = await Promise.all(
    crops.map(async (f, i) => ({
      input: await sharp(join(dir, f)).resize(GROUP_TILE_PX, GROUP_TILE_PX, { fit: 'cover' }).toBuffer(),
      left: (i % columns) * GROUP_TILE_PX,
      top: Math.floor(i / columns) * GROUP_TILE_PX,
    })),
  );
  const size = { width: columns * GROUP_TILE_PX, height: Math.ceil(count / columns) * GROUP_TILE_PX };
  return sharp({ create: { ...size, channels: 3, background: '#808080' } })
    .composite(tiles)
    .jpeg({ quality: 90 })
    .toBuffer();
}
