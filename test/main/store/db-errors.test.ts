// A node_modules installed under another Node.js major (20 and 22 differ in NODE_MODULE_VERSION)
// leaves better-sqlite3's compiled module unloadable: the first `new Database` throws Node's
// ERR_DLOPEN_FAILED. That is not the database file's fault, and the message must say how to cure it.
import { describe, expect, it } from 'vitest';
import { databaseError } from '../../../src-main/store';

/** What Node 22 throws when better-sqlite3 was compiled under Node 20 (verbatim but the path). */
const abiMismatch = Object.assign(
  new Error(
    "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
      'was compiled against a different Node.js version using\n' +
      'NODE_MODULE_VERSION 115. This version of Node.js requires\n' +
      'NODE_MODULE_VERSION 127. Please try re-compiling or re-installing\n' +
      'the module (for instance, using `npm rebuild` or `npm install`).',
  ),
  { code: 'ERR_DLOPEN_FAILED' },
);

describe('databaseError on a native module that does not load', () => {
  it('names the Node.js version mismatch and the rebuild, not a fault of the file', () => {
    const err = databaseError('/data/picscan.db', abiMismatch);
    expect(err.code).toBe('storage-failed');
    expect(err.message).toContain('/data/picscan.db');
    expect(err.message).toContain(`NODE_MODULE_VERSION 115; Node.js ${process.version} needs 127`);
    expect(err.message).toContain('npm rebuild better-sqlite3');
    expect(err.message).not.toMatch(/cannot be used|\n/);
  });

  it('any other load failure still says to rebuild, with the loader message on one line', () => {
    const err = databaseError(
      '/data/picscan.db',
      Object.assign(new Error('libstdc++.so.6: cannot open shared object file:\nNo such file or directory'), {
        code: 'ERR_DLOPEN_FAILED',
      }),
    );
    expect(err.message).toContain('could not be loaded (libstdc++.so.6: cannot open shared object file: No such file or directory)');
    expect(err.message).toContain('npm rebuild better-sqlite3');
    expect(err.message).not.toContain('\n');
  });
});
