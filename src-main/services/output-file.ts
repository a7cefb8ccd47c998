/**
 * An output file (an export the user names) written under a temporary name beside it and renamed
 * over it only once complete. An export interrupted midway (Ctrl-C, a full disk, the app closed)
 * otherwise leaves a truncated file that looks finished, in place of the earlier export the user
 * had under that name. Files that are not regular (a terminal, a pipe, /dev/full) are written in
 * place, as renaming over them would replace the device rather than write to it.
 */
import { rmSync, type Stats, type WriteStream } from 'node:fs';
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface OutputFile {
  /** Where the data goes (the temporary file, or the target itself when written in place). */
  stream: WriteStream;
  /** Ends the stream and, once everything is written, puts the file in place of the target. */
  commit(): Promise<void>;
  /** Drops what was written: the temporary file goes, an earlier file at the target stays. */
  discard(): Promise<void>;
}

/** Temporary files not yet committed or discarded, removed if the process is stopped meanwhile. */
const pending = new Set<string>();
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let hooked = false;

/** Removes the pending temporary files; synchronous, as it runs while the process ends. */
function removePending(): void {
  for (const path of pending) rmSync(path, { force: true });
  pending.clear();
}

/**
 * Cleans up when the process ends: at exit, and on a stop signal nobody else handles (the
 * signal's default ends the process without an exit event), where it removes the files and then
 * lets the signal end the process as it would have.
 */
function hookProcessEnd(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removePending);
  for (const signal of STOP_SIGNALS) {
    if (process.listenerCount(signal) > 0) continue; // its owner ends the process through exit
    const onSignal = (): void => {
      removePending();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** The regular-file status of `path`, undefined when nothing is there; other kinds are returned as they are. */
async function existing(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Opens `path` for writing, in place (the old behaviour) with no temporary file. */
async function inPlace(path: string): Promise<OutputFile> {
  const stream = (await open(path, 'w')).createWriteStream();
  return {
    stream,
    commit: () => endOf(stream),
    discard: async () => void stream.destroy(),
  };
}

/** Ends `stream` and resolves once its data is written and the file closed; rejects with its write error. */
function endOf(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.errored) return reject(stream.errored);
    stream.once('error', reject);
    stream.once('close', () => (stream.errored ? reject(stream.errored) : resolve()));
    stream.end();
  });
}

/**
 * Opens an output file for `path`. Errors opening it are the file system's own (ENOENT, EISDIR,
 * EACCES…), for the caller to name; a folder that refuses new files while the file itself can be
 * written falls back to writing in place.
 */
export async function openOutputFile(path: string): Promise<OutputFile> {
  const target = await existing(path);
  if (target?.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
  if (target && !target.isFile()) return inPlace(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  let handle;
  try {
    handle = await open(temp, 'w');
  } catch (err) {
    if (target && ['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')) return inPlace(path);
    throw err;
  }
  pending.add(temp);
  hookProcessEnd();
  if (target) await chmod(temp, target.mode & 0o7777).catch(() => undefined); // the earlier file's permissions
  const stream = handle.createWriteStream();
  const drop = async (): Promise<void> => {
    stream.destroy();
    await rm(temp, { force: true });
    pending.delete(temp);
  };
  return {
    stream,
    async commit() {
      try {
        await endOf(stream);
        await rename(temp, path);
        pending.delete(temp);
      } catch (err) {
        await drop();
        throw err;
      }
    },
    discard: drop,
  };
}
