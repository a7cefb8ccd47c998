// An underexposed portrait is no night scene: the dark behind a portrait face is a backdrop (a dim
// room, a studio), not a night sky. Before, the fixture portraits at 45 % exposure were "a smiling
// man at night" and "a man wearing glasses at night" with night, outdoor and sky tagged up to 1.0
// (the smooth dark top counted as night sky). Lights still make a dark portrait a night scene.
// Real models with the face stack, through the analyze service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-dark-portrait-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The fixture at `exposure` × its levels, as a JPEG file. */
async function dimmed(name: string, exposure: number, lights = false): Promise<string> {
  const file = join(dir, `${exposure}-${lights ? 'lights-' : ''}${name}`);
  let img = sharp(fixture(name)).linear(exposure, 0);
  if (lights) {
    // Forty warm point lights (5 px dots) across the top quarter, as street lights behind a
    // portrait at night.
    const { width, height } = await sharp(fixture(name)).metadata();
    const dots = Array.from({ length: 40 }, (_, i) => {
      const x = Math.round(((i * 37) % 40) * (width! / 40)) + 5;
      const y = Math.round(((i * 17) % 10) * (height! / 40)) + 5;
      return `<circle cx="${x}" cy="${y}" r="5" fill="#ffcc33"/>`;
    }).join('');
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${dots}</svg>`);
    img = sharp(await img.toBuffer()).composite([{ input: svg }]);
  }
  await img.jpeg({ quality: 90 }).toFile(file);
  return file;
}

describe('a dark portrait', () => {
  let files: Record<string, string>;
  beforeAll(async () => {
    files = {
      obama: await dimmed('obama_portrait.jpg', 0.45),
      hopper: await dimmed('grace_hopper.jpg', 0.45),
      lights: await dimmed('obama_portrait.jpg', 0.45, true),
    };
  });

  it.each(['obama', 'hopper'])('%s dimmed to 0.45 of its levels is no night scene outdoors', async (key) => {
    const d = await describer.described(files[key]!);
    expect(d.faces.length).toBeGreaterThanOrEqual(1);
    expect(d.caption).not.toMatch(/night|outdoors/);
    for (const tag of ['night', 'outdoor', 'sky']) expect(d.tags.get(tag) ?? 0, tag).toBeLessThan(0.5);
  });

  it('with point lights behind it, it is a portrait at night', async () => {
    const d = await describer.described(files['lights']!);
    expect(d.caption).toMatch(/at night$/);
    expect(d.tags.get('night') ?? 0).toBeGreaterThanOrEqual(0.5);
  });

  it('a night scene without a portrait face stays one', async () => {
    const d = await describer.described(fixture('rocket_launchpad.jpg'));
    expect(d.caption).toMatch(/at night$/);
    expect(d.tags.get('sky') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
