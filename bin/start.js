#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here, otherwise web mode (`picscan serve`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchEnv } from './process-env.js';

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
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: launchEnv() });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

/** True when out/renderer is missing or older than any file under src-renderer/. */
function uiBuildIsStale() {
  const built = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
      const p = join(dir, e.name);
      return Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }, 0);
  return newest(join(root, 'src-renderer')) > builtAt;
}

const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const reason = electronUnavailableReason();
if (reason === null) {
  // electron-vite preview builds main, preload and renderer, then starts Electron.
  run(process.execPath, [electronVite, 'preview']);
} else {
  process.stderr.write(`picscan: the desktop window cannot start because ${reason}; starting web mode instead.\n`);
  if (uiBuildIsStale()) {
    process.stderr.write('picscan: building the UI (first start, a few seconds)…\n');
    const build = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) {
      process.stderr.write(`picscan: building the UI failed:\n${build.stdout}${build.stderr}`);
      process.exit(1);
    }
  }
  // The UI is served to this machine only, so plain HTTP on loopback avoids a certificate warning.
  const args = process.argv.length > 2 ? process.argv.slice(2) : ['--http', '--port', '8080'];
  run(process.execPath, [join(root, 'bin', 'picscan.js'), 'serve', ...args]);
}
