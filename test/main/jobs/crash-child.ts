// Child process for the crash test: resumes one batch of a database file and runs it to the end.
// Usage: node --import tsx crash-child.ts <db> <batchId> <processLog>
import { appendFileSync } from 'node:fs';
import { migrate, openDatabase } from '../../../src-main/store';
import { fakeProcessor, makeService } from './support';

const [dbPath, batchId, log] = process.argv.slice(2) as [string, string, string];
const db = openDatabase(dbPath);
migrate(db);
const service = makeService(db, fakeProcessor({ delayMs: 10, onProcess: (sha) => appendFileSync(log, `${sha}\n`) }));
const summary = await service.start(Number(batchId));
await service.close();
db.close();
process.stdout.write(`${JSON.stringify(summary)}\n`);
