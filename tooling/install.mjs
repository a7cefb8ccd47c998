// Installs the tooling package (build and measurement tooling, ./package.json) on first use:
// `npm ci` from its own lock when tooling/node_modules is missing or older than that lock.
// The root scripts that need it (models:*, bench:models, test:models) run this first.
// Usage: node tooling/install.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const lock = new URL('package-lock.json', import.meta.url);
// npm writes this hidden lockfile after every install; it is absent when nothing was installed.
const installed = new URL('node_modules/.package-lock.json', import.meta.url);

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  process.stderr.write('== installing the tooling package (tooling/package-lock.json)\n');
  // The weight-source packages need no install scripts; none run.
  execFileSync('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts'], { stdio: 'inherit' });
}
