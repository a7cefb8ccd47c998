// Every command that opens the database, on a file it cannot use: a clear message naming the
// file and the reason, no stack trace, exit 1 at once (nothing left running: workers, timers, models).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { runPicscan, type CliOptions, type CliRun } from '../../helpers/cli';

/** Longest wait from the error message to the exit, in ms. */
const EXIT_AFTER_MESSAGE_MS = 1_000;
/** Kills a hanging command; the hang itself is the failure. */
const HANG_MS = 20_000;

// Permissions mean nothing to root, and the tests may run as root: then the commands run as
// `nobody` (uid 65534) against files owned by root, which is what an ordinary user meets.
const NOBODY = { uid: 65_534, gid: 65_534 };
const asUser: CliOptions['user'] = process.getuid?.() === 0 ? NOBODY : undefined;

const dir = mkdtempSync(join(tmpdir(), 'picscan-db-errors-'));
chmodSync(dir, 0o755);
const dataDir = join(dir, 'data');
mkdirSync(dataDir, { mode: 0o777 });
chmodSync(dataDir, 0o777);
const list = join(dir, 'list.txt');
writeFileSync(list, 'http://127.0.0.1:9/a.jpg\n');

/** A file that is not a database. */
const notADatabase = join(dir, 'notes.db');
writeFileSync(notADatabase, 'These are my notes, not a database.\n'.repeat(20));
/** A directory given as the database. */
const directory = join(dir, 'folder.db');
mkdirSync(directory);
/** A migrated database the user may read but not write, in a folder `name` the user may write. */
function readOnlyDatabase(name: string, journal: 'DELETE' | 'WAL'): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  chmodSync(folder, 0o777);
  const file = join(folder, 'readonly.db');
  const seed = openDatabase(file);
  migrate(seed);
  if (journal === 'DELETE') seed.pragma('journal_mode = DELETE'); // no -wal/-shm files the user could create beside it
  seed.close();
  chmodSync(file, 0o444);
  return file;
}
/** Opening it switches it to WAL, a write the user may not make. */
const readOnly = readOnlyDatabase('open', 'DELETE');
/**
 * The same in WAL mode (as picscan leaves its databases): opening it writes nothing, so the
 * commands that only read still work and the refusal shows at the first write.
 */
const readOnlyWal = readOnlyDatabase('wal', 'WAL');
/** A new database in a folder the user may not write. */
const lockedDir = join(dir, 'locked');
mkdirSync(lockedDir);
chmodSync(lockedDir, 0o555);
const noPermission = join(lockedDir, 'new.db');

const cases = [
  { what: 'not a database', db: notADatabase, reason: /is not a database/ },
  { what: 'a directory', db: directory, reason: /is a directory/ },
  { what: 'read-only', db: readOnly, reason: /read-only/ },
  { what: 'in a folder without write permission', db: noPermission, reason: /permission denied/ },
];

const commands: string[][] = [
  ['batch', list],
  ['resume', '1'],
  ['batches'],
  ['export', '1', '--out', '-'],
  ['keys', 'list'],
  ['serve', '--http', '--port', '0'],
  ['gallery', 'list'],
  ['cancel', '1'],
];

/** Runs `tasks` at most `limit` at a time (the machine's cores are shared). */
async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

describe('commands on a database they cannot use', () => {
  for (const c of cases) {
    it(`every command says the file is ${c.what} and exits 1 at once`, { timeout: 150_000 }, async () => {
      const runs = await pooled(
        commands.map(
          (args) => () => runPicscan([...args, '--db', c.db], { env: { PICSCAN_DATA_DIR: dataDir }, timeoutMs: HANG_MS, user: asUser }),
        ),
        2,
      );
      runs.forEach((r: CliRun, i) => {
        const label = `picscan ${commands[i]!.join(' ')}: ${r.stderr}`;
        expect(r.code, label).toBe(1);
        expect(r.stderr, label).toContain(c.db);
        expect(r.stderr, label).toMatch(c.reason);
        expect(r.stderr, label).not.toMatch(/\n\s+at /); // no stack trace
        expect(r.elapsedMs - r.firstStderrMs!, label).toBeLessThan(EXIT_AFTER_MESSAGE_MS);
      });
    });
  }
});

describe('a read-only database in WAL mode', () => {
  it('can be read, and a write says the file is read-only in one line (exit 1)', { timeout: 120_000 }, async () => {
    const run = (args: string[]): Promise<CliRun> =>
      runPicscan([...args, '--db', readOnlyWal], { env: { PICSCAN_DATA_DIR: dataDir }, timeoutMs: HANG_MS, user: asUser });
    const listed = await run(['batches', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    for (const args of [
      ['batch', list],
      ['keys', 'create', '--name', 'ci', '--tier', 'basic'],
    ]) {
      const r = await run(args);
      const label = `picscan ${args.join(' ')}: ${r.stderr}`;
      expect(r.code, label).toBe(1);
      expect(r.stderr, label).toContain(readOnlyWal);
      expect(r.stderr, label).toMatch(/is read-only/);
      expect(r.stderr, label).not.toMatch(/unexpected error|\n\s+at /);
    }
  });
});
