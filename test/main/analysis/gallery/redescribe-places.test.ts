import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePlaceReference, PLACE_DESCRIPTOR } from '../../../../src-main/analysis/gallery/index';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import { GalleryService } from '../../../../src-main/services/gallery.service';
import { GalleryRepo, migrate, openDatabase, type Db } from '../../../../src-main/store';
import { fixture } from '../../../helpers/paths';
import { fixtureImage, testEngine, testLoader } from './support';

// Place references written by an install whose content-net file was another one (the float file
// before the int8 switch: another sha256). The matcher ignores them; `redescribe('place')` reads
// each source again and stores the new vector beside the old row, with the entry's location kept;
// a source that is gone is reported. Nothing is deleted.
describe('re-describing place references of an older model file (real models, SQLite file)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let dir: string;
  let file: string;
  const OLD_SHA = 'f'.repeat(64);
  const open = (): Db => {
    const db = openDatabase(file);
    migrate(db);
    return db;
  };

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    dir = mkdtempSync(join(tmpdir(), 'picscan-redescribe-places-'));
    file = join(dir, 'picscan.db');
    const gone = join(dir, 'launchpad.jpg');
    copyFileSync(fixture('rocket_launchpad.jpg'), gone);
    const db = open();
    const repo = new GalleryRepo(db);
    for (const [name, source, image, lat, lng] of [
      ['Colosseum', fixture('colosseum.jpg'), 'colosseum.jpg', 41.8902, 12.4922],
      ['Launch pad', gone, 'rocket_launchpad.jpg', 28.6082, -80.6041],
    ] as const) {
      const d = await describePlaceReference(await fixtureImage(loader, image), engine);
      repo.enrol({ kind: 'place', name, mid: name === 'Colosseum' ? '/m/0d5qx' : null, latitude: lat, longitude: lng }, [
        {
          entryId: 0,
          source,
          modelId: PLACE_DESCRIPTOR.modelId,
          modelSha256: OLD_SHA,
          method: PLACE_DESCRIPTOR.method,
          dim: PLACE_DESCRIPTOR.dim,
          descriptor: d.vector,
          face: null,
          thumbnail: null,
          thumbnailType: null,
        },
      ]);
    }
    db.close();
    rmSync(gone);
  }, 300_000);
  afterAll(async () => {
    await loader.close();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ignores the old rows, re-describes what it can beside them, keeps the location, idempotently', async () => {
    const db = open();
    const gallery = new GalleryService({ db, engine, loader });
    const colosseum = await fixtureImage(loader, 'colosseum.jpg');
    expect(gallery.referenceStatus('place').stale.map((s) => s.name)).toEqual(['Colosseum', 'Launch pad']);
    expect((await gallery.matcher().matchLandmarks(colosseum)).details).toEqual([]);

    const report = await gallery.redescribe('place');
    expect(report.redescribed).toBe(1);
    expect(report.needsReEnrolment.map((r) => [r.name, r.reason])).toEqual([['Launch pad', expect.stringMatching(/cannot be read/)]]);
    const found = await gallery.matcher().matchLandmarks(colosseum);
    expect(found.details.map((d) => d.name)).toEqual(['Colosseum']);
    expect(gallery.list().map((e) => [e.name, e.references, e.mid, e.latitude])).toEqual([
      ['Colosseum', 2, '/m/0d5qx', 41.8902],
      ['Launch pad', 1, null, 28.6082],
    ]);
    expect((await gallery.redescribe('place')).redescribed).toBe(0);
    expect(gallery.referenceStatus('place')).toMatchObject({ current: 1, replaced: 1 });
    await gallery.dispose();
    db.close();
  });
});
