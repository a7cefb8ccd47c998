/**
 * Search behaviour on synthetic images built from the real fixtures: small faces need the tile
 * search (minHeadScale), ROLL finds upside-down faces and reports their roll, and eye centres
 * follow the image when it is rotated (within 10 % of the inter-ocular distance).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DetectedFace, DetectResponse } from '../../../../src-main/shared/spec';
import { fixture } from '../../../helpers/paths';
import { loadFixtures, matchFaces, openFaceStack, type FaceStack, type TruthFace } from './fixture-eval';
import { faceCollage, occludedFixture, rotatedFixture, shrunkenFixture, withSunglasses } from './synthetic';

let stack: FaceStack;
let dir: string;
let collage: { file: string; faces: TruthFace[] };

beforeAll(async () => {
  stack = openFaceStack(2);
  dir = mkdtempSync(join(tmpdir(), 'picscan-faces-'));
  const c = await faceCollage({ width: 1600, height: 1200, cols: 4, rows: 3, faceSidesPx: [30, 40, 50, 60] });
  collage = { file: join(dir, 'collage.jpg'), faces: c.faces };
  writeFileSync(collage.file, c.bytes);
  for (const deg of [90, 180]) writeFileSync(join(dir, `rot${deg}.png`), await rotatedFixture('obama_biden_two_people.jpg', deg));
}, 120_000);
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const facesOf = (r: DetectResponse): DetectedFace[] => ('images' in r ? (r.images[0]?.faces ?? []) : []);
const detect = async (image: string, params: { minHeadScale?: number; selector?: unknown } = {}): Promise<DetectedFace[]> =>
  facesOf((await stack.service.detect({ image, ...params })).response);

describe('small faces', () => {
  it('finds 12 faces of 30–60 px in a 1600×1200 collage at the default minHeadScale', async () => {
    const faces = await detect(collage.file);
    const matched = matchFaces(faces, collage.faces).filter(([, p]) => p).length;
    expect(matched / collage.faces.length).toBeGreaterThanOrEqual(0.95);
    expect(matched / faces.length).toBeGreaterThanOrEqual(0.95);
  });

  it('finds the six faces of the group photo shrunk to 26–37 px faces, with no extras', async () => {
    const family = loadFixtures().find((e) => e.file === 'family_six_faces.jpg')!;
    const s = await shrunkenFixture(family.file, family.truth.faces, 0.35);
    writeFileSync(join(dir, 'family-small.png'), s.bytes);
    const faces = await detect(join(dir, 'family-small.png'));
    expect(matchFaces(faces, s.faces).filter(([, p]) => p)).toHaveLength(6);
    expect(faces).toHaveLength(6);
  });

  it('finds 18 faces, not a 19th straddling two heads, in three copies of the group photo side by side', async () => {
    const family = loadFixtures().find((e) => e.file === 'family_six_faces.jpg')!;
    const photo = fixture(family.file);
    const { width = 0, height = 0 } = await sharp(photo).metadata();
    const strip = await sharp({ create: { width: 3 * width, height, channels: 3, background: '#fff' } })
      .composite([0, 1, 2].map((i) => ({ input: photo, left: i * width, top: 0 })))
      .jpeg({ quality: 92 })
      .toBuffer();
    writeFileSync(join(dir, 'family-strip.jpg'), strip);
    const truth = [0, 1, 2].flatMap((i) =>
      family.truth.faces.map((t) => ({
        left: t.left + i * width,
        top: t.top,
        width: t.width,
        height: t.height,
      })),
    );
    const faces = await detect(join(dir, 'family-strip.jpg'));
    expect(matchFaces(faces, truth).filter(([, p]) => p)).toHaveLength(18);
    expect(faces).toHaveLength(18);
  });

  it('a whole-image pass (minHeadScale 0.5) misses most of them: the tiles are what finds them', async () => {
    expect((await detect(collage.file, { minHeadScale: 0.5 })).length).toBeLessThanOrEqual(3);
  });
});

describe('selectors and geometry', () => {
  it('ROLL finds upside-down faces FRONTAL does not search for, and reports roll near 180°', async () => {
    const upside = join(dir, 'rot180.png');
    expect(await detect(upside)).toHaveLength(0);
    const rolled = await detect(upside, { selector: ['frontal', 'roll'] });
    expect(rolled).toHaveLength(2);
    for (const f of rolled) expect(Math.abs(f.roll)).toBeGreaterThan(150);
  });

  it('eye centres move with the image (90° rotation) within 10 % of the inter-ocular distance', async () => {
    const upright = await detect(fixture('obama_biden_two_people.jpg'));
    const turned = await detect(join(dir, 'rot90.png'), { selector: 'ROLL' });
    expect(upright).toHaveLength(2);
    expect(turned).toHaveLength(2);
    const H = 397; // source height: a clockwise 90° turn maps (x, y) → (H − 1 − y, x)
    for (const u of upright) {
      const map = (x: number, y: number): [number, number] => [H - 1 - y, x];
      const [lx, ly] = map(u.leftEyeCenterX, u.leftEyeCenterY);
      const [rx, ry] = map(u.rightEyeCenterX, u.rightEyeCenterY);
      const ied = Math.hypot(lx - rx, ly - ry);
      const t = turned.find((f) => Math.hypot(f.leftEyeCenterX - lx, f.leftEyeCenterY - ly) < ied);
      expect(t, 'same face after rotation').toBeDefined();
      expect(Math.hypot(t!.leftEyeCenterX - lx, t!.leftEyeCenterY - ly) / ied).toBeLessThanOrEqual(0.1);
      expect(Math.hypot(t!.rightEyeCenterX - rx, t!.rightEyeCenterY - ry) / ied).toBeLessThanOrEqual(0.1);
      expect(t!.roll - u.roll).toBeGreaterThan(75);
      expect(t!.roll - u.roll).toBeLessThan(105);
    }
  });

  it('PARTIAL finds a face whose lower half is covered, which FRONTAL rejects', async () => {
    const box = { left: 149, top: 102, width: 229, height: 229 };
    writeFileSync(join(dir, 'occluded.png'), await occludedFixture('grace_hopper.jpg', box, 0.55));
    expect(await detect(join(dir, 'occluded.png'))).toHaveLength(0);
    const partial = await detect(join(dir, 'occluded.png'), { selector: 'partial' });
    expect(partial).toHaveLength(1);
    expect(matchFaces(partial, [box]).filter(([, p]) => p)).toHaveLength(1);
  });

  it('calls painted-on dark lenses Sun and the bare faces None', async () => {
    const bare = await detect(fixture('obama_biden_two_people.jpg'));
    expect(bare.map((f) => f.attributes.glasses)).toEqual(['None', 'None']);
    const eyes = bare.map((f) => ({
      left: [f.leftEyeCenterX, f.leftEyeCenterY] as [number, number],
      right: [f.rightEyeCenterX, f.rightEyeCenterY] as [number, number],
    }));
    writeFileSync(join(dir, 'sun.png'), await withSunglasses('obama_biden_two_people.jpg', eyes));
    const shaded = await detect(join(dir, 'sun.png'), { selector: 'FULL' });
    expect(shaded.map((f) => f.attributes.glasses)).toEqual(['Sun', 'Sun']);
  });

  it('reports the subject’s own eyes: the left eye is on the viewer’s right for upright faces', async () => {
    for (const f of await detect(fixture('family_six_faces.jpg'))) expect(f.leftEyeCenterX).toBeGreaterThan(f.rightEyeCenterX);
  });
});
