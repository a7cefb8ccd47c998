import { describe, expect, it } from 'vitest';
import { GalleryRepo, migrate, schemaVersion, type NewGalleryReference } from '../../../../src-main/store';
import { createTestDb } from '../../../helpers/db';

const ref = (values: number[], extra: Partial<NewGalleryReference> = {}): NewGalleryReference => ({
  entryId: 0,
  source: 'ref.jpg',
  modelId: 'faceres',
  modelSha256: 'a'.repeat(64),
  method: 'm1',
  dim: values.length,
  descriptor: Float32Array.from(values),
  face: { left: 1, top: 2, width: 3, height: 3 },
  thumbnail: Uint8Array.from([1, 2, 3]),
  thumbnailType: 'image/webp',
  ...extra,
});

describe('migration 200 create-galleries', () => {
  it('creates entries, references and the revision row, with their checks', () => {
    const db = createTestDb(199);
    expect(migrate(db, 200)).toBe(200);
    expect(schemaVersion(db)).toBe(200);
    const insert = db.prepare('INSERT INTO gallery_entries (kind, name, mid, latitude, longitude, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    insert.run('place', 'Colosseum', '/m/0d5qx', 41.89, 12.49, 't');
    expect(() => insert.run('thing', 'x', null, null, null, 't')).toThrow(/CHECK/);
    expect(() => insert.run('place', 'Pole', null, 91, 0, 't')).toThrow(/CHECK/);
    expect(() => insert.run('place', 'Half', null, 10, null, 't')).toThrow(/CHECK/);
    expect(() => insert.run('person', 'With place', null, 10, 10, 't')).toThrow(/CHECK/);
    expect(() => insert.run('place', 'colosseum', null, null, null, 't')).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO gallery_references (entry_id, source, model_id, model_sha256, method, dim, descriptor, created_at) VALUES (1, 's', 'm', 'h', 'x', 2, ?, 't')",
        )
        .run(Buffer.alloc(4)),
    ).toThrow(/CHECK/);
    expect(db.prepare('SELECT revision FROM gallery_meta').pluck().get()).toBe(0);
  });
});

describe('GalleryRepo', () => {
  it('enrols, adds references to an existing name, bumps the revision and cascades removal', () => {
    const repo = new GalleryRepo(createTestDb());
    const r0 = repo.revision();
    const a = repo.enrol({ kind: 'person', name: ' Ada Lovelace ', mid: null, latitude: null, longitude: null }, [ref([0.6, 0.8])]);
    expect(a).toMatchObject({ kind: 'person', name: 'Ada Lovelace', references: 1 });
    const again = repo.enrol({ kind: 'person', name: 'ada lovelace', mid: null, latitude: null, longitude: null }, [ref([1, 0])]);
    expect(again).toMatchObject({ id: a.id, references: 2 });
    expect(repo.revision()).toBe(r0 + 2);
    const refs = repo.referencesOf(a.id);
    expect(Array.from(refs[0]!.descriptor)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(refs[0]!.face).toEqual({ left: 1, top: 2, width: 3, height: 3 });
    expect(repo.thumbnail(refs[0]!.id)).toEqual({ data: Uint8Array.from([1, 2, 3]), type: 'image/webp' });
    expect(repo.referencesOfKind('person')).toHaveLength(2);
    expect(repo.referencesOfKind('place')).toHaveLength(0);
    expect(repo.remove(a.id)).toBe(true);
    expect(repo.remove(a.id)).toBe(false);
    expect(repo.referencesOfKind('person')).toHaveLength(0);
    expect(repo.revision()).toBe(r0 + 3);
  });

  it('keeps a person and a place of the same name apart and updates a place location', () => {
    const repo = new GalleryRepo(createTestDb());
    repo.enrol({ kind: 'person', name: 'Paris', mid: null, latitude: null, longitude: null }, [ref([1, 0])]);
    repo.enrol({ kind: 'place', name: 'Paris', mid: null, latitude: 48.85, longitude: 2.35 }, [ref([0, 1], { face: null })]);
    const moved = repo.enrol({ kind: 'place', name: 'Paris', mid: '/m/05qtj', latitude: 48.86, longitude: 2.34 }, []);
    expect(moved).toMatchObject({ mid: '/m/05qtj', latitude: 48.86, longitude: 2.34, references: 1 });
    expect(repo.list().map((e) => [e.kind, e.name])).toEqual([
      ['person', 'Paris'],
      ['place', 'Paris'],
    ]);
  });
});
