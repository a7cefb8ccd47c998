import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPicscan } from '../../../helpers/cli';
import { fixture } from '../../../helpers/paths';

describe('picscan gallery (real models, child process)', () => {
  let dir: string;
  let db: string;
  const picscan = (...args: string[]) => runPicscan(['gallery', ...args, '--db', db], { timeoutMs: 120_000 });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'picscan-gallery-cli-'));
    db = join(dir, 'gallery.db');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('enrols, lists, exports, removes and imports again', { timeout: 300_000 }, async () => {
    const person = await picscan('add-person', 'Barack Obama', fixture('obama_portrait.jpg'), '--json');
    expect(person.code, person.stderr).toBe(0);
    expect(JSON.parse(person.stdout)).toMatchObject({ kind: 'person', name: 'Barack Obama', references: 1 });

    const place = await picscan(
      'add-place',
      'Colosseum',
      '--lat',
      '41.8902',
      '--lng',
      '12.4922',
      '--mid',
      '/m/0d5qx',
      fixture('colosseum.jpg'),
    );
    expect(place.code, place.stderr).toBe(0);
    expect(place.stdout).toMatch(/^Place \d+ "Colosseum": 1 reference image\(s\)\./);

    const list = await picscan('list', '--json');
    const entries = JSON.parse(list.stdout) as { id: number; kind: string; name: string; mid: string | null }[];
    expect(entries.map((e) => [e.kind, e.name, e.mid])).toEqual([
      ['person', 'Barack Obama', null],
      ['place', 'Colosseum', '/m/0d5qx'],
    ]);

    const file = join(dir, 'gallery.json');
    const exported = await picscan('export', file);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('Exported 2 entries (2 references)');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      format: 'picscan-gallery',
      entries: [{ name: 'Barack Obama' }, { name: 'Colosseum' }],
    });

    for (const e of entries) expect((await picscan('remove', String(e.id))).code).toBe(0);
    expect((await picscan('list')).stdout).toMatch(/galleries are empty/);

    const imported = await picscan('import', file, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ entries: 2, created: 2, merged: 0, references: 2 });
    expect((await picscan('list')).stdout).toMatch(/person .*Barack Obama[\s\S]*place .*Colosseum {2}\(41\.8902, 12\.4922, \/m\/0d5qx\)/);
  });

  it('imports what enrolment accepts and counts what it stored', { timeout: 300_000 }, async () => {
    const exported = JSON.parse(await readFile(join(dir, 'gallery.json'), 'utf8')) as {
      entries: { name: string; references: { dim: number; descriptor: string }[] }[];
    };
    let fresh = 0;
    const importEdited = async (edit: (f: typeof exported) => void) => {
      const file = structuredClone(exported);
      edit(file);
      const path = join(dir, `edited-${++fresh}.json`);
      await writeFile(path, JSON.stringify(file));
      const freshDb = join(dir, `fresh-${fresh}.db`);
      const run = await runPicscan(['gallery', 'import', path, '--db', freshDb], { timeoutMs: 120_000 });
      const list = await runPicscan(['gallery', 'list', '--json', '--db', freshDb], { timeoutMs: 120_000 });
      return { ...run, stored: JSON.parse(list.stdout) as { name: string }[] };
    };
    const refused = (run: { code: number | null; stderr: string; stored: unknown[] }, message: RegExp) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^picscan: Gallery file not imported: [^\n]*\n$/);
      expect(run.stderr).toMatch(message);
      expect(run.stored).toEqual([]);
    };

    refused(await importEdited((f) => void (f.entries[0]!.name = 'A'.repeat(5000))), /entry 1 \("A{40}…"\): name: .*200/);
    const zeros = Buffer.alloc(128 * Float32Array.BYTES_PER_ELEMENT).toString('base64');
    refused(await importEdited((f) => void (f.entries[0]!.references[0]!.descriptor = zeros)), /"Barack Obama" .*all zeros/);
    const nan = Buffer.alloc(128 * Float32Array.BYTES_PER_ELEMENT);
    nan.writeFloatLE(NaN, 0);
    refused(
      await importEdited((f) => void (f.entries[0]!.references[0]!.descriptor = nan.toString('base64'))),
      /"Barack Obama" .*not a finite number/,
    );
    refused(
      await importEdited((f) => void (f.entries[0]!.references[0]!.dim = 64)),
      /"Barack Obama" has the wrong descriptor length \(64, expected 128\)/,
    );

    const twice = await importEdited((f) => void f.entries.push({ ...f.entries[0]!, name: 'barack obama' }));
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toMatch(/^Imported 2 entries \(3 references\) from .*\. 1 of the file's entries joined an entry of the same name/);
    expect(twice.stored.map((e) => e.name)).toEqual(['Barack Obama', 'Colosseum']);
  });

  it('names enrolled people in picscan analyze (same database via PICSCAN_DB)', { timeout: 180_000 }, async () => {
    const run = await runPicscan(['analyze', fixture('obama_portrait.jpg'), '--features', 'Categories', '--details', 'Celebrities'], {
      env: { PICSCAN_DB: db },
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as { data: { categories: { name: string; detail?: { celebrities?: { name: string }[] } }[] } };
    const people = envelope.data.categories.find((c) => c.name === 'people_');
    expect(people?.detail?.celebrities?.map((c) => c.name)).toEqual(['Barack Obama']);
  });

  it('explains a reference with several faces and exits 1', { timeout: 120_000 }, async () => {
    const run = await picscan('add-person', 'Who', fixture('obama_biden_two_people.jpg'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/shows 2 faces .*choose one with --face <n>/);
  });

  it('rejects bad arguments with a usage error (exit 2)', { timeout: 120_000 }, async () => {
    expect((await picscan('remove', 'abc')).code).toBe(2);
    const lat = await picscan('add-place', 'X', '--lat', 'north', '--lng', '0', fixture('colosseum.jpg'));
    expect(lat.code).toBe(2);
    expect(lat.stderr).toMatch(/--lat must be a number/);
    const missing = await picscan('remove', '999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No gallery entry 999/);
    const unwritable = await picscan('export', join(dir, 'no-such-folder', 'g.json'));
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^picscan: Cannot write .*g\.json: the folder .*no-such-folder does not exist\.\n$/);
    const folder = await picscan('export', dir);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`picscan: Cannot write ${dir}: it is a folder.\n`);
  });

  it('prints names with control characters on one line, escape sequences shown as U+FFFD', { timeout: 120_000 }, async () => {
    // A gallery file is shared between users: its names must not clear or recolour the terminal.
    const evil = 'Eve\u001b[2J\u001b[31m\nRed';
    const shown = 'Eve\ufffd[2J\ufffd[31m\ufffdRed';
    const added = await picscan('add-person', evil, fixture('obama_portrait.jpg'));
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(`Person ${/Person (\d+)/.exec(added.stdout)![1]} "${shown}": 1 reference image(s).\n`);
    const list = await picscan('list');
    expect(list.stdout).toContain(shown);
    const file = join(dir, 'evil.json');
    expect((await picscan('export', file)).code).toBe(0);
    const exported = JSON.parse(await readFile(file, 'utf8')) as { entries: { name: string; references: { dim: number }[] }[] };
    // A refusal quoting the name, and the removal line.
    // Only this entry (the file also holds what earlier cases enrolled): its references broken.
    exported.entries = exported.entries
      .filter((e) => e.name === evil)
      .map((e) => ({ ...e, references: e.references.map((r) => ({ ...r, dim: 3 })) }));
    expect(exported.entries).toHaveLength(1);
    await writeFile(file, JSON.stringify(exported));
    const refused = await picscan('import', file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('\ufffd[2J');
    const id = /Person (\d+)/.exec(added.stdout)![1]!;
    const removed = await picscan('remove', id);
    expect(removed.stdout).toBe(`Removed person ${id} "${shown}".\n`);
    for (const out of [added.stdout, list.stdout, refused.stderr, removed.stdout]) expect(out).not.toContain('\u001b');
  });
});
