import { extname } from 'node:path';
import type { Command } from 'commander';
import { AppError } from '../../core';
import { parseThumbnailOptions } from '../../services/api';
import { doneItems, writeThumbnails } from '../../services/export-thumbnails';
import { openOutputFile, type OutputFile } from '../../services/output-file';
import type { ThumbnailService } from '../../services/thumbnail.service';
import type { ExportFormat, ItemStatus, ResultFilter } from '../../shared/batch';
import { CATEGORY_NAMES, COLOR_NAMES } from '../../shared/spec';
import { cannotWrite, checkWritableFile, makeWritableFolder } from '../out-path';
import { parseBatchId, withBatches, type DbFlag } from './batch';
import { counted } from '../../shared/counted';

interface ExportFlags extends DbFlag {
  format?: string;
  out: string;
  status?: string;
  tag: string[];
  tagMinConfidence?: string;
  category: string[];
  color: string[];
  minFaces?: string;
  maxFaces?: string;
  minAdult?: string;
  maxAdult?: string;
  minRacy?: string;
  maxRacy?: string;
  bw?: boolean;
  minClipArt?: string;
  lineDrawing?: boolean;
  celebrity?: string;
  landmark?: string;
  caption?: string;
  thumbnails?: string;
  size?: string;
  smart?: boolean;
}

const STATUSES: readonly ItemStatus[] = ['queued', 'fetching', 'analyzing', 'done', 'failed', 'skipped'];
const collect = (value: string, previous: string[]): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

function num(text: string | undefined, flag: string, min: number, max: number, integer = false): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new AppError('invalid-parameter', `${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not "${text}".`);
  }
  return n;
}

/** Category groups (`animal_`, `outdoor_` …): named when a category given is unknown. */
const CATEGORY_GROUPS = [...new Set(CATEGORY_NAMES.map((n) => `${n.split('_')[0]}_`))];
/** At most this many taxonomy names are suggested for an unknown category. */
const CATEGORY_SUGGESTIONS = 6;

/** A `--category` value as its taxonomy name (any case), or a refusal naming the nearest names. */
function categoryOf(text: string): string {
  const wanted = text.toLowerCase();
  const hit = CATEGORY_NAMES.find((n) => n === wanted);
  if (hit) return hit;
  const near = CATEGORY_NAMES.filter((n) => n.includes(wanted) || wanted.includes(n.replace(/_$/, ''))).slice(0, CATEGORY_SUGGESTIONS);
  const hint = near.length
    ? `did you mean ${near.join(', ')}?`
    : `the categories are the 86 names of the taxonomy, in the groups ${CATEGORY_GROUPS.join(', ')}.`;
  throw new AppError('invalid-parameter', `"${text}" is not a category; ${hint}`);
}

/** Refuses a range whose lower bound is above its upper bound: no item could match. */
function checkRange(min: number | undefined, max: number | undefined, flags: [string, string]): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw new AppError('invalid-parameter', `${flags[0]} ${min} is more than ${flags[1]} ${max}: no item can match.`);
  }
}

/** Builds the ResultFilter from the export flags (the same filters as the results browser). */
export function filterOf(batchId: number, o: ExportFlags): ResultFilter {
  const status = o.status?.split(',').map((s) => s.trim().toLowerCase());
  const badStatus = status?.find((s) => !STATUSES.includes(s as ItemStatus));
  if (badStatus) throw new AppError('invalid-parameter', `"${badStatus}" is not a status; use ${STATUSES.join(', ')}.`);
  const colors = o.color.map((c) => {
    const hit = COLOR_NAMES.find((n) => n.toLowerCase() === c.toLowerCase());
    if (!hit) throw new AppError('invalid-parameter', `"${c}" is not a colour; use ${COLOR_NAMES.join(', ')}.`);
    return hit;
  });
  const f: ResultFilter = {
    batchId,
    status: status as ItemStatus[] | undefined,
    tags: o.tag.length ? o.tag : undefined,
    tagMinConfidence: num(o.tagMinConfidence, '--tag-min-confidence', 0, 1),
    categories: o.category.length ? [...new Set(o.category.map(categoryOf))] : undefined,
    colors: colors.length ? colors : undefined,
    minFaces: num(o.minFaces, '--min-faces', 0, 1000, true),
    maxFaces: num(o.maxFaces, '--max-faces', 0, 1000, true),
    minAdult: num(o.minAdult, '--min-adult', 0, 1),
    maxAdult: num(o.maxAdult, '--max-adult', 0, 1),
    minRacy: num(o.minRacy, '--min-racy', 0, 1),
    maxRacy: num(o.maxRacy, '--max-racy', 0, 1),
    isBW: o.bw,
    minClipArt: num(o.minClipArt, '--min-clip-art', 0, 3, true),
    lineDrawing: o.lineDrawing,
    celebrity: o.celebrity,
    landmark: o.landmark,
    captionText: o.caption,
  };
  checkRange(f.minFaces, f.maxFaces, ['--min-faces', '--max-faces']);
  checkRange(f.minAdult, f.maxAdult, ['--min-adult', '--max-adult']);
  checkRange(f.minRacy, f.maxRacy, ['--min-racy', '--max-racy']);
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as ResultFilter;
}

/**
 * Opens the output file before writing to it, so a bad path is a clear error rather than a stream
 * failure later. The export goes to a temporary file that replaces `path` only when complete.
 */
async function openOut(path: string): Promise<OutputFile> {
  try {
    return await openOutputFile(path);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

/** `--size WxH [--smart]` checked by the thumbnail operation's own parameter schema (1..1024 px). */
function thumbnailOptionsOf(o: ExportFlags): { width: number; height: number; smartCropping: boolean } | undefined {
  if (o.thumbnails === undefined) {
    if (o.size !== undefined || o.smart) throw new AppError('invalid-parameter', '--size and --smart need --thumbnails <dir>.');
    return undefined;
  }
  const m = /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(o.size ?? '');
  if (!m) throw new AppError('invalid-parameter', `--thumbnails needs --size WxH (e.g. 256x256), not "${o.size ?? ''}".`);
  return parseThumbnailOptions({ width: m[1], height: m[2], smartCropping: Boolean(o.smart) });
}

/**
 * Writes one thumbnail per done item into `dir` and returns the file names for the export;
 * items whose image cannot be read any more are listed on stderr and get an empty cell.
 */
async function exportThumbnails(
  batches: Parameters<typeof doneItems>[0],
  filter: ResultFilter,
  dir: string,
  opts: { width: number; height: number; smartCropping: boolean },
  thumbnails: () => ThumbnailService,
): Promise<Map<number, string>> {
  const items = await doneItems(batches, filter);
  const made = await writeThumbnails(items, thumbnails(), dir, opts);
  for (const f of made.failures) process.stderr.write(`No thumbnail for item ${f.itemId} (${f.url}): ${f.error.message}\n`);
  process.stderr.write(`Wrote ${counted(made.files.size, 'thumbnail')} (${opts.width}x${opts.height}) to ${dir}.\n`);
  return made.files;
}

/** Export formats by the extension of the file they are written to. */
const FORMAT_OF_EXTENSION: Readonly<Record<string, ExportFormat>> = {
  '.csv': 'csv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};
const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'ndjson'];

/**
 * The export format: `--format` if given, else the one `--out`'s extension names, else CSV. Before,
 * CSV was the default whatever the name, so `--out results.json` wrote CSV into a .json file; a
 * `--format` that contradicts the extension (`--format json --out results.csv`) is a bad command
 * line (exit 2) rather than a file whose name lies about its contents.
 */
export function exportFormatOf(flag: string | undefined, out: string): ExportFormat {
  const named = out === '-' ? undefined : FORMAT_OF_EXTENSION[extname(out).toLowerCase()];
  if (flag === undefined) return named ?? 'csv';
  const format = EXPORT_FORMATS.find((f) => f === flag.toLowerCase());
  if (!format) throw new AppError('invalid-parameter', `--format must be csv, json or ndjson, not "${flag}".`);
  if (named && named !== format)
    throw new AppError(
      'invalid-parameter',
      `--format ${format} does not match --out ${out}, a name for ${named.toUpperCase()}: drop --format or change the file name.`,
    );
  return format;
}

/** `picscan export <id> --format csv|json|ndjson --out <file> [filters] [--thumbnails <dir> --size WxH [--smart]]`. */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description("export a batch's items and results (CSV: flattened columns, Excel-safe; JSON: array; NDJSON: one per line)")
    .argument('<id>', 'batch id (see picscan batches)')
    .requiredOption('--out <file>', 'output file, or - for stdout')
    .option('--format <format>', "csv, json or ndjson (default: --out's extension, .csv, .json, .ndjson or .jsonl; else csv)")
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--status <list>', `only these statuses (${STATUSES.join(', ')})`)
    .option('--tag <name>', 'only items with this tag (repeatable: all must match)', collect, [])
    .option('--tag-min-confidence <0..1>', 'confidence a tag needs to match (default 0.5)')
    .option('--category <name>', 'only items in this category (repeatable: any matches)', collect, [])
    .option('--color <name>', 'only items with this dominant colour (repeatable: any matches)', collect, [])
    .option('--min-faces <n>', 'at least n faces')
    .option('--max-faces <n>', 'at most n faces')
    .option('--min-adult <0..1>', 'adult score at least')
    .option('--max-adult <0..1>', 'adult score at most')
    .option('--min-racy <0..1>', 'racy score at least')
    .option('--max-racy <0..1>', 'racy score at most')
    .option('--bw', 'only black-and-white images')
    .option('--no-bw', 'only colour images')
    .option('--min-clip-art <0..3>', 'clip-art type at least')
    .option('--line-drawing', 'only line drawings')
    .option('--no-line-drawing', 'no line drawings')
    .option('--celebrity <name>', 'only images with this celebrity')
    .option('--landmark <name>', 'only images with this landmark')
    .option('--caption <text>', 'caption contains this text (any case)')
    .option('--thumbnails <dir>', 'also write one thumbnail per done item into this folder (CSV column `thumbnail` names the file)')
    .option('--size <WxH>', 'thumbnail size in px, each side 1..1024 (with --thumbnails)')
    .option('--smart', 'smart-cropped thumbnails: keep the faces, else the main subject (with --thumbnails)')
    .action(async (idText: string, o: ExportFlags) => {
      const id = parseBatchId(idText);
      const format = exportFormatOf(o.format, o.out);
      const filter = filterOf(id, o);
      const thumbnailOptions = thumbnailOptionsOf(o);
      await withBatches(o, async ({ service, backend }) => {
        service.get(id); // not-found before creating the file
        if (thumbnailOptions) {
          // Both paths are checked before the first thumbnail is made, not after the last.
          if (o.out !== '-') await checkWritableFile(o.out);
          await makeWritableFolder(o.thumbnails!);
        }
        const thumbnails =
          thumbnailOptions && (await exportThumbnails(service, filter, o.thumbnails!, thumbnailOptions, () => backend.thumbnails()));
        if (o.out === '-') {
          await service.export(filter, format, process.stdout, { thumbnails });
          return;
        }
        const out = await openOut(o.out);
        let count: number;
        try {
          count = await service.export(filter, format, out.stream, { thumbnails });
        } catch (err) {
          await out.discard();
          // The file's own write failing midway (the disk filled up…) is named like a path refused up front.
          throw err === out.stream.errored ? cannotWrite(o.out, err) : err;
        }
        await out.commit().catch((err: unknown) => Promise.reject(cannotWrite(o.out, err)));
        process.stderr.write(`Exported ${counted(count, 'item')} of batch ${id} to ${o.out}.\n`);
      });
    });
}
