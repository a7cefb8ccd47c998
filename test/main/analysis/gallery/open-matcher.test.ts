import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGalleryMatcher } from '../../../../src-main/services/gallery-matcher';
import { migrate, openDatabase } from '../../../../src-main/store';

// No gallery entries, so no model may run: any call to the engine is a failure.
const noEngine = {
  spec: () => {
    throw new Error('no model expected');
  },
  run: () => Promise.reject(new Error('no model expected')),
};
const pixels = { data: new Uint8Array(4 * 4 * 3), width: 4, height: 4 };
const face = {
  box: { left: 0, top: 0, width: 4, height: 4 },
  confidence: 1,
  age: 30,
  gender: 'Male' as const,
  genderConfidence: 1,
  glasses: false,
  smiling: false,
};

describe('openGalleryMatcher', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('matches nothing and creates no database when the app database does not exist', async () => {
    dir = await mkdtemp(join(tmpdir(), 'picscan-gallery-open-'));
    const file = join(dir, 'picscan.db');
    const g = openGalleryMatcher(file, noEngine);
    expect(await g.matcher.matchLandmarks(pixels)).toEqual({ details: [] });
    expect(await g.matcher.matchCelebrities(pixels, [face as never])).toEqual([]);
    expect(existsSync(file)).toBe(false);
    await g.close();
  });

  it('uses an existing database with empty galleries without running a model', async () => {
    dir = await mkdtemp(join(tmpdir(), 'picscan-gallery-open-'));
    const file = join(dir, 'picscan.db');
    const db = openDatabase(file);
    migrate(db);
    db.close();
    const g = openGalleryMatcher(file, noEngine);
    expect(await g.matcher.matchLandmarks(pixels)).toEqual({ details: [] });
    expect(await g.matcher.matchCelebrities(pixels, [face as never])).toEqual([]);
    await g.close();
  });
});
