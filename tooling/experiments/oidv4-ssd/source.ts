/**
 * Reads a TFLite model out of an npm package. MediaPipe solution packages pack their assets into
 * one `*_packed_assets.data` file; its emscripten loader (`*_packed_assets_loader.js`) lists each
 * file's [start, end) byte range, which we parse instead of hard-coding offsets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../../convert/tfjs-source';

export interface TfliteSource {
  package: '@mediapipe/objectron';
  /** Packed data file inside the package. */
  data: string;
  /** Its emscripten file-packager loader (has the offsets). */
  loader: string;
  /** Asset name inside the pack (the loader's "filename" without directories). */
  asset: string;
}

/** The packed files listed by an emscripten file-packager loader. */
export function packedFiles(loaderJs: string): { filename: string; start: number; end: number }[] {
  const re = /"filename":\s*"([^"]+)",\s*"start":\s*(\d+),\s*"end":\s*(\d+)/g;
  return [...loaderJs.matchAll(re)].map((m) => ({ filename: m[1]!, start: Number(m[2]), end: Number(m[3]) }));
}

/** The bytes of one packed asset (matched by base name). */
export function readPackedAsset(pkg: string, data: string, loader: string, asset: string): Uint8Array {
  const root = packageDir(pkg);
  const files = packedFiles(readFileSync(join(root, loader), 'utf8'));
  const f = files.find((x) => x.filename.split('/').pop() === asset);
  if (!f) throw new Error(`${asset} not in ${pkg}/${loader} (has ${files.map((x) => x.filename).join(', ')})`);
  const all = readFileSync(join(root, data));
  return new Uint8Array(all.buffer, all.byteOffset + f.start, f.end - f.start);
}

export function loadTflite(src: TfliteSource): Uint8Array {
  return readPackedAsset(src.package, src.data, src.loader, src.asset);
}
