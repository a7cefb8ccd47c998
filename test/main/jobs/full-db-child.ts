// Child process for the write-error test: runs one batch of a database file with the real
// BatchService, optionally capping the file's size (PRAGMA max_page_count) so a write fails
// mid-batch with SQLITE_FULL, as on a full disk.
// Usage: node --import tsx full-db-child.ts <db> <batchId> <processLog> <extraPages|0>
// Exit 0 with the summary JSON on stdout, or 1 with the error message on stderr.
import { appendFileSync } from 'node:fs';
import { AppError } from '../../../src-main/core';
import { migrate, openDatabase } from '../../../src-main/store';
import { fakeProcessor, makeService } from './support';

const [dbPath, batchId, log, extraPages] = process.argv.slice(2) as [string, string, string, string];
const db = openDatabase(dbPath);
migrate(db);
if (Number(extraPages) > 0) {
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages + Number(extraPages)}`);
}
const service = makeService(db, fakeProcessor({ delayMs: 5, onProcess: (sha) => appendFileSync(log, `${sha}\n`) }));
try {
  const summary = await service.start(Number(batchId));
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} catch (err) {
  process.stderr.write(`${err instanceof AppError ? `${err.code}: ${err.message}` : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await service.close();
  db.close();
}
