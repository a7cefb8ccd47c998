import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config';
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

/**
 * The format an output file's extension asks for (`thumb.png` is a PNG whatever the input), or
 * undefined (no or another extension: the input's own, as the API answers). Writing JPEG bytes
 * into a `.png` file, as before, left a file that some viewers and uploaders refuse.
 */
function formatOf(out: string): ThumbnailFormat | undefined {
  const ext = extname(out).toLowerCase();
  return ext === '.png' ? 'Png' : ext === '.jpg' || ext === '.jpeg' ? 'Jpeg' : undefined;
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
    .requiredOption('--out <file>', "where to write the thumbnail: PNG for .png, JPEG for .jpg/.jpeg, else the input's format")
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
