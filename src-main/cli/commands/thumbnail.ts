import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError } from '../../core';
import { parseThumbnailParams } from '../../services/api';
import type { ThumbnailFormat } from '../../services/thumbnail/encode';
import { THUMBNAIL_SIDE_PX } from '../../shared/contract';
import { withBackend } from '../with-backend';
import { ExitCode } from '../exit-codes';
import { cannotWrite, checkWritableFile } from '../out-path';

interface ThumbnailFlags {
  width: string;
  height: string;
  smart?: boolean;
  out: string;
}

/** Extensions of the formats a thumbnail is written in. */
const FORMAT_OF_EXTENSION: Readonly<Record<string, ThumbnailFormat>> = { '.png': 'Png', '.jpg': 'Jpeg', '.jpeg': 'Jpeg' };

/**
 * Extensions of other image formats, with their names: such an `--out` is refused rather than
 * given JPEG or PNG bytes under a name that says otherwise (a `.gif` holding a JPEG was written
 * without a word; viewers and uploaders go by the name and refuse it).
 */
const OTHER_IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  '.gif': 'GIF',
  '.webp': 'WebP',
  '.avif': 'AVIF',
  '.heic': 'HEIC',
  '.heif': 'HEIF',
  '.tif': 'TIFF',
  '.tiff': 'TIFF',
  '.bmp': 'BMP',
  '.svg': 'SVG',
  '.ico': 'ICO',
  '.jxl': 'JPEG XL',
  '.jp2': 'JPEG 2000',
};

/**
 * The format an output file's extension asks for (`thumb.png` is a PNG whatever the input), or
 * undefined (no extension or one of no image format: the input's own, as the API answers).
 * Writing JPEG bytes into a `.png` file, as before, left a file that some viewers and uploaders
 * refuse; an extension of another image format is a bad command line (exit 2).
 */
function formatOf(out: string): ThumbnailFormat | undefined {
  const ext = extname(out).toLowerCase();
  const other = OTHER_IMAGE_EXTENSIONS[ext];
  if (other)
    throw new AppError('invalid-input', `Cannot write ${out} as a ${other} file: thumbnails are PNG (.png) or JPEG (.jpg, .jpeg).`);
  return FORMAT_OF_EXTENSION[ext];
}

/**
 * `picscan thumbnail <image> --width W --height H [--smart] --out <file>`: the thumbnail
 * operation on one image (URL or file), written in the format `--out`'s extension names (.png,
 * .jpg, .jpeg), else as the input's (JPEG for JPEG input and PNG for PNG input).
 * Sizes are checked by the API's own parameter schema (1..1024): a bad size exits 2, and so does
 * an `--out` that cannot be written (checked before the image is analysed).
 */
export function registerThumbnail(program: Command): void {
  program
    .command('thumbnail')
    .description('make a thumbnail of exactly WxH px of one image (URL or file); --smart crops around faces or the main subject')
    .argument('<image>', 'http(s) URL, file: URL or local path of a JPG/PNG image')
    .requiredOption('--width <px>', `thumbnail width, ${THUMBNAIL_SIDE_PX.min}..${THUMBNAIL_SIDE_PX.max} px`)
    .requiredOption('--height <px>', `thumbnail height, ${THUMBNAIL_SIDE_PX.min}..${THUMBNAIL_SIDE_PX.max} px`)
    .option('--smart', 'smart cropping: keep the faces, else the main subject, else the most salient region (default: centre crop)')
    .requiredOption(
      '--out <file>',
      "where to write the thumbnail: PNG for .png, JPEG for .jpg/.jpeg (.gif, .webp … refused), else the input's format",
    )
    .action(async (image: string, o: ThumbnailFlags) => {
      const req = {
        ...parseThumbnailParams({ image, width: o.width, height: o.height, smartCropping: Boolean(o.smart) }),
        format: formatOf(o.out),
      };
      await checkWritableFile(o.out); // before the models load and the image is analysed
      await withBackend(loadConfig(), {}, async (backend) => {
        const t = await backend.thumbnails().thumbnail(req.image, req);
        try {
          await writeFile(o.out, t.data);
        } catch (err) {
          throw cannotWrite(o.out, err);
        }
        const how = t.regions ? `smart crop around ${t.regions.kind}` : 'centre crop';
        const c = t.crop;
        process.stdout.write(
          `${o.out}: ${t.width}x${t.height} ${t.format.toUpperCase()}, ${how} of ${c.width}x${c.height} at ${c.left},${c.top}\n`,
        );
        process.exitCode = ExitCode.ok;
      });
    });
}
