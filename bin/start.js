#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here, otherwise web mode (`picscan serve`).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Why Electron cannot run here, or null when it can. */
function electronUnavailableReason() {
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return 'the electron package is not installed';
  }
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile) || !existsSync(join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim()))) {
    return 'the Electron binary is not installed (run `npm run setup:electron` on a machine with internet access)';
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  return null;
}

function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

const reason = electronUnavailableReason();
if (reason === null) {
  run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'preview']);
} else {
  process.stderr.write(`picscan: the desktop window cannot start because ${reason}; starting web mode instead.\n`);
  const cli = join(root, 'bin', 'picscan.js');
  const { buildProgram } = await import('./start-web-mode.js');
  if (await buildProgram()) run(process.execPath, [cli, 'serve', ...process.argv.slice(2)]);
  else {
    process.stderr.write('picscan: web mode is not available in this version yet.\n');
    process.exit(1);
  }
}
