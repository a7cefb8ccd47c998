import { open } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { AppError, throwIfAborted } from '../core';
import { isStdinPath } from '../shared/stdin';
import { formatBytes } from './describe';

/** Reads a local image file (desktop/CLI only), refusing it before reading when it exceeds `maxBytes`. */
export async function readLocalFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  throwIfAborted(signal);
  // A terminal is no image: it is opened like any path below and refused as "not a file".
  if (isStdinPath(path) && !isatty(0)) return readPipe(process.stdin, path, maxBytes, signal);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw fileError(err, path);
  }
  try {
    const stat = await handle.stat();
    // A pipe (`picscan analyze - < …`, `<(curl …)`) has no size: read it up to the limit.
    if (stat.isFIFO() || stat.isSocket()) return await readPipe(handle.createReadStream({ autoClose: false }), path, maxBytes, signal);
    if (!stat.isFile()) throw new AppError('file-not-found', `${path} is not a file.`, { details: { path } });
    if (stat.size > maxBytes) {
      throw new AppError(
        'image-too-large',
        `The image at ${path} is too large: ${formatBytes(stat.size)}, and the limit is ${formatBytes(maxBytes)}.`,
        {
          details: { bytes: stat.size, limit: maxBytes, declared: true },
        },
      );
    }
    const bytes = await handle.readFile({ signal });
    // The file may have grown since stat; the limit still holds.
    if (bytes.length > maxBytes) {
      throw new AppError('image-too-large', `The image at ${path} is too large: more than ${formatBytes(maxBytes)}.`, {
        details: { bytes: bytes.length, limit: maxBytes, declared: false },
      });
    }
    return bytes;
  } catch (err) {
    throw err instanceof AppError ? err : fileError(err, path);
  } finally {
    await handle.close();
  }
}

/** Reads a pipe to its end, refusing it as soon as it passes `maxBytes` (an endless pipe never fills the memory). */
async function readPipe(chunks: AsyncIterable<Buffer>, path: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    throwIfAborted(signal);
    total += chunk.length;
    if (total > maxBytes) {
      throw new AppError('image-too-large', `The image at ${path} is too large: more than ${formatBytes(maxBytes)}.`, {
        details: { bytes: total, limit: maxBytes, declared: false },
      });
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts, total);
}

function fileError(err: unknown, path: string): AppError {
  const code = (err as { code?: unknown } | null)?.code;
  if ((err as Error | null)?.name === 'AbortError')
    return new AppError('cancelled', `Loading the image at ${path} was cancelled.`, { cause: err });
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new AppError('file-not-found', `The file ${path} does not exist.`, { cause: err, details: { path } });
  if (code === 'EISDIR')
    return new AppError('file-not-found', `${path} is a folder, not an image file.`, { cause: err, details: { path } });
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError('file-not-found', `The file ${path} cannot be read (permission denied).`, { cause: err, details: { path } });
  }
  return new AppError('file-not-found', `The file ${path} could not be read${typeof code === 'string' ? ` (${code})` : ''}.`, {
    cause: err,
    details: { path },
  });
}
