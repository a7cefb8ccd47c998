import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError } from '../../core';
import type { GalleryService, GallerySummary } from '../../services/gallery.service';
import { idArgument, terminalText } from '../flags';
import { cannotWrite, checkWritableFile } from '../out-path';
import { withBackend } from '../with-backend';
import { counted } from '../../shared/counted';

interface Flags {
  db?: string;
  json?: boolean;
}

/** Runs `run` over the galleries of `--db`; the models load only when an image is enrolled. */
function withGallery<T>(flags: Flags, run: (g: GalleryService) => Promise<T> | T): Promise<T> {
  return withBackend(loadConfig({ dbPath: flags.db }), {}, (backend) => run(backend.galleries()));
}

function parseNumber(text: string | undefined, what: string): number {
  const n = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(n))
    throw new AppError('invalid-parameter', `${what} must be a number, not "${text ?? ''}".`);
  return n;
}

function parseId(text: string): number {
  const id = idArgument(text);
  if (id === undefined)
    throw new AppError('invalid-parameter', `"${text}" is not a gallery id (a positive integer; see picscan gallery list).`);
  return id;
}

const print = (json: boolean | undefined, value: unknown, text: string): void => {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
};

const where = (e: GallerySummary): string =>
  e.kind === 'place' && e.latitude !== null ? `  (${e.latitude}, ${e.longitude}${e.mid ? `, ${terminalText(e.mid)}` : ''})` : '';

const line = (e: GallerySummary): string =>
  `${String(e.id).padStart(4)}  ${e.kind.padEnd(6)}  ${String(e.references).padStart(4)}  ${terminalText(e.name)}${where(e)}`;

const enrolled = (e: GallerySummary): string =>
  `${e.kind === 'person' ? 'Person' : 'Place'} ${e.id} "${terminalText(e.name)}": ${e.references} reference image(s).`;

/**
 * `picscan gallery add-person|add-place|list|redescribe|remove|export|import`: the person and place
 * galleries that name celebrities and landmarks in analyze. All share the app database
 * (`--db` to use another file).
 */
export function registerGallery(program: Command): void {
  const gallery = program.command('gallery').description('enrol people and places that analyze names (celebrities, landmarks)');
  gallery
    .command('add-person')
    .description('enrol a person (or add references): each image must show one face, or pick it with --face')
    .argument('<name>', 'the name analyze reports')
    .argument('<image...>', 'reference photos: local paths or http(s) URLs')
    .option('--face <n>', 'which face to use when an image shows several (1 = leftmost, as detect numbers them)')
    .option('--json', 'print the entry as JSON')
    .option('--db <file>', 'database file (default: the app-data database)')
    .action(async (name: string, images: string[], o: Flags & { face?: string }) => {
      const faceNumber = o.face === undefined ? undefined : parseNumber(o.face, '--face');
      const entry = await withGallery(o, (g) => g.addPerson(name, images, { faceNumber }));
      print(o.json, entry, enrolled(entry));
    });
  gallery
    .command('add-place')
    .description('enrol a place (or add references) with its location')
    .argument('<name>', 'the name analyze reports')
    .argument('<image...>', 'reference photos: local paths or http(s) URLs')
    .requiredOption('--lat <degrees>', 'latitude, -90..90')
    .requiredOption('--lng <degrees>', 'longitude, -180..180')
    .option('--mid <id>', 'entity id reported as Landmarks[].mid (e.g. a Knowledge Graph id such as /m/0d5qx)')
    .option('--json', 'print the entry as JSON')
    .option('--db <file>', 'database file (default: the app-data database)')
    .action(async (name: string, images: string[], o: Flags & { lat: string; lng: string; mid?: string }) => {
      const place = { latitude: parseNumber(o.lat, '--lat'), longitude: parseNumber(o.lng, '--lng'), mid: o.mid };
      const entry = await withGallery(o, (g) => g.addPlace(name, place, images));
      print(o.json, entry, enrolled(entry));
    });
  gallery
    .command('list')
    .description('list enrolled people and places')
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (o: Flags) => {
      const { list, stale } = await withGallery(o, (g) => ({
        list: g.list(),
        stale: g.referenceStatus('person').stale.length + g.referenceStatus('place').stale.length,
      }));
      if (stale)
        process.stderr.write(`${stale} reference(s) were made by an older model and are not used: run picscan gallery redescribe.\n`);
      const header = '  id  kind    refs  name';
      print(
        o.json,
        list,
        list.length === 0 ? 'The galleries are empty (picscan gallery add-person / add-place).' : [header, ...list.map(line)].join('\n'),
      );
    });
  gallery
    .command('redescribe')
    .description(
      'describe references made by an older model or recipe again, from their stored source (and face box); old rows stay, a second run adds nothing',
    )
    .option('--json', 'print { redescribed, needsReEnrolment } as JSON')
    .option('--db <file>', 'database file')
    .action(async (o: Flags) => {
      const report = await withGallery(o, async (g) => {
        const people = await g.redescribe('person');
        const places = await g.redescribe('place');
        return {
          redescribed: people.redescribed + places.redescribed,
          needsReEnrolment: [...people.needsReEnrolment, ...places.needsReEnrolment],
        };
      });
      const failed = report.needsReEnrolment.map(
        (r) => `  ${terminalText(r.name)} (reference ${r.referenceId}, ${terminalText(r.source)}): ${r.reason}`,
      );
      const text = [
        `Described ${report.redescribed} reference(s) again.`,
        ...(failed.length ? [`${failed.length} need a new photo (picscan gallery add-person|add-place):`, ...failed] : []),
      ];
      print(o.json, report, text.join('\n'));
    });
  gallery
    .command('remove')
    .description('remove a person or place and its references')
    .argument('<id>', 'entry id from picscan gallery list')
    .option('--json', 'print the removed entry as JSON')
    .option('--db <file>', 'database file')
    .action(async (id: string, o: Flags) => {
      const removed = await withGallery(o, (g) => g.remove(parseId(id)));
      print(o.json, removed, `Removed ${removed.kind} ${removed.id} "${terminalText(removed.name)}".`);
    });
  gallery
    .command('export')
    .description('write both galleries (descriptors, thumbnails, model ids and checksums) to a portable JSON file')
    .argument('<file>', 'output .json file')
    .option('--db <file>', 'database file')
    .action(async (file: string, o: Flags) => {
      await checkWritableFile(file); // before the galleries are read
      const doc = await withGallery(o, (g) => g.exportAll());
      try {
        await writeFile(file, `${JSON.stringify(doc)}\n`);
      } catch (err) {
        throw cannotWrite(file, err);
      }
      const refs = doc.entries.reduce((n, e) => n + e.references.length, 0);
      process.stdout.write(`Exported ${counted(doc.entries.length, 'entry', 'entries')} (${counted(refs, 'reference')}) to ${file}.\n`);
    });
  gallery
    .command('import')
    .description('add the entries of an exported gallery file; refused if it was made with other models')
    .argument('<file>', 'a file written by picscan gallery export')
    .option('--json', 'print { entries, created, merged, references } as JSON')
    .option('--db <file>', 'database file')
    .action(async (file: string, o: Flags) => {
      let json: unknown;
      try {
        json = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new AppError('invalid-input', `Cannot read gallery file ${file}: ${(err as Error).message}`, { cause: err });
      }
      const report = await withGallery(o, (g) => g.importAll(json));
      // Names differing only in case are one entry (as on enrolment): say so, or the list looks short.
      const merged = report.merged
        ? ` ${report.merged} of the file's entries joined an entry of the same name (names match ignoring case).`
        : '';
      print(
        o.json,
        report,
        `Imported ${counted(report.entries, 'entry', 'entries')} (${counted(report.references, 'reference')}) from ${file}.${merged}`,
      );
    });
}
