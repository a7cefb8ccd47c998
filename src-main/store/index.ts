/** The SQLite store: connection, migrations and one repository per aggregate. All SQL lives here. */
export { openDatabase, type Db } from './db';
export { migrate, schemaVersion, type Migration } from './migrate';
