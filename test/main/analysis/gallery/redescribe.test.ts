import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFace, FACE_DESCRIPTOR, FACERES_DESCRIPTOR_V1 } from '../../../../src-main/analysis/gallery/index';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import { GalleryService } from '../../../../src-main/services/gallery.service';
import { GalleryRepo, migrate, openDatabase, type Db } from '../../../../src-main/store';
import { runPicscan } from '../../../helpers/cli';
import { fixture } from '../../../helpers/paths';
import { facesOf, fixtureImage, testEngine, testLoader } from './support';

// A gallery file written by an install whose person recipe was faceres' (FACERES_DESCRIPTOR_V1):
// after the upgrade the matcher ignores those rows, `redescribePeople` describes them again from
// their stored source and face box beside the old rows, and the ones it cannot (source gone, no
// face at the box) are reported for re-enrolment. No stored reference is ever deleted.
describe('re-describing person references of an older recipe (real models, SQLite file)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let dir: string;
  let file: string;
  /** A copy of the upgraded file for the CLI. */
  let cliFile: string;
  const open = (): Db => {
    const db = openDatabase(file);
    migrate(db);
    return db;
  };

  /** Stores a reference as the old install did: faceres' recipe, its model sha256, the face box. */
  async function enrolOld(db: Db, name: string, source: string, image: string): Promise<void> {
    const img = await fixtureImage(loader, image);
    const box = (await facesOf(engine, img))[0]!.box;
    const face = { left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width), height: Math.round(box.height) };
    const d = await describeFace(img, box, engine, undefined, FACERES_DESCRIPTOR_V1);
    new GalleryRepo(db).enrol({ kind: 'person', name, mid: null, latitude: null, longitude: null }, [
      {
        entryId: 0,
        source,
        modelId: FACERES_DESCRIPTOR_V1.modelId,
        modelSha256: engine.spec(FACERES_DESCRIPTOR_V1.modelId).sha256,
        method: FACERES_DESCRIPTOR_V1.method,
        dim: FACERES_DESCRIPTOR_V1.dim,
        descriptor: d!.vector,
        face,
        thumbnail: null,
        thumbnailType: null,
      },
    ]);
  }

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    dir = mkdtempSync(join(tmpdir(), 'picscan-redescribe-'));
    file = join(dir, 'picscan.db');
    cliFile = join(dir, 'cli.db');
    const gone = join(dir, 'tom.jpg');
    copyFileSync(fixture('tom_cruise.jpg'), gone);
    const db = open();
    await enrolOld(db, 'Barack Obama', fixture('obama_portrait.jpg'), 'obama_portrait.jpg');
    await enrolOld(db, 'Joe Biden', fixture('biden_portrait.jpg'), 'biden_portrait.jpg');
    await enrolOld(db, 'Tom Cruise', gone, 'tom_cruise.jpg');
    // A source that now holds another picture: the stored box shows no face there.
    await enrolOld(db, 'Grace Hopper', fixture('coffee_cup.jpg'), 'grace_hopper.jpg');
    db.close();
    rmSync(gone);
    copyFileSync(file, cliFile);
  }, 300_000);
  afterAll(async () => {
    await loader.close();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ignores the old rows, re-describes what it can beside them and reports the rest, idempotently', async () => {
    const db = open();
    const gallery = new GalleryService({ db, engine, loader });
    const img = await fixtureImage(loader, 'obama_biden_two_people.jpg');
    const faces = await facesOf(engine, img);

    const before = gallery.personReferenceStatus();
    expect(before.current).toBe(0);
    expect(before.replaced).toBe(0);
    expect(before.stale.map((s) => [s.name, s.method])).toEqual([
      ['Barack Obama', FACERES_DESCRIPTOR_V1.method],
      ['Joe Biden', FACERES_DESCRIPTOR_V1.method],
      ['Tom Cruise', FACERES_DESCRIPTOR_V1.method],
      ['Grace Hopper', FACERES_DESCRIPTOR_V1.method],
    ]);
    expect(await gallery.matcher().matchCelebrities(img, faces)).toEqual([]);

    const report = await gallery.redescribePeople();
    expect(report.redescribed).toBe(2);
    expect(report.needsReEnrolment.map((r) => r.name)).toEqual(['Tom Cruise', 'Grace Hopper']);
    expect(report.needsReEnrolment[0]!.reason).toMatch(/cannot be read/);
    expect(report.needsReEnrolment[1]!.reason).toMatch(/no longer shows the enrolled face/);
    expect((await gallery.matcher().matchCelebrities(img, faces)).map((c) => c.name).sort()).toEqual(['Barack Obama', 'Joe Biden']);

    // Nothing lost, nothing duplicated by a second run.
    const counts = () => gallery.list().map((e) => [e.name, e.references]);
    const expected = [
      ['Barack Obama', 2],
      ['Grace Hopper', 1],
      ['Joe Biden', 2],
      ['Tom Cruise', 1],
    ];
    expect(counts()).toEqual(expected);
    const again = await gallery.redescribePeople();
    expect(again.redescribed).toBe(0);
    expect(again.needsReEnrolment).toHaveLength(2);
    expect(counts()).toEqual(expected);
    await gallery.dispose();
    db.close();

    // The file as another process opens it.
    const reopened = new GalleryService({ db: open(), engine, loader });
    const after = reopened.personReferenceStatus();
    expect(after.current).toBe(2);
    expect(after.replaced).toBe(2);
    expect(after.stale.map((s) => s.name)).toEqual(['Tom Cruise', 'Grace Hopper']);
    const refs = new GalleryRepo(open()).referencesOfKind('person');
    expect(refs.filter((r) => r.method === FACE_DESCRIPTOR.method)).toHaveLength(2);
    expect(refs.filter((r) => r.method === FACERES_DESCRIPTOR_V1.method)).toHaveLength(4);
    await reopened.dispose();
  });

  it('is one command: picscan gallery list says so, picscan gallery redescribe does it', { timeout: 300_000 }, async () => {
    const picscan = (...args: string[]) => runPicscan(['gallery', ...args, '--db', cliFile], { timeoutMs: 240_000 });
    const list = await picscan('list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain('4 reference(s) were made by an older model and are not used: run picscan gallery redescribe.');
    const run = await picscan('redescribe', '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { redescribed: number; needsReEnrolment: { name: string; reason: string }[] };
    expect(report.redescribed).toBe(2);
    expect(report.needsReEnrolment.map((r) => r.name)).toEqual(['Tom Cruise', 'Grace Hopper']);
    const text = await picscan('redescribe');
    expect(text.stdout).toMatch(/^Described 0 reference\(s\) again\.\n2 need a new photo/);
    expect(text.stdout).toContain('Tom Cruise (reference');
    expect((await picscan('list')).stderr).toContain('2 reference(s) were made by an older model');
  });
});
