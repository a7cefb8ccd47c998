// Child process for the migration race test: opens a database file and migrates it.
// Usage: node --import tsx migrate-child.ts <db> ; prints the resulting user_version.
import { migrate, openDatabase } from '../../../src-main/store';

const db = openDatabase(process.argv[2]!);
const version = migrate(db);
db.close();
process.stdout.write(`${version}\n`);
