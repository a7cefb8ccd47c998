// JSON-lines work files of the generators (one JSON value per line; absent file: no rows).
import { existsSync, readFileSync } from 'node:fs';

/** The rows of a JSON-lines file, [] when it does not exist. */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
