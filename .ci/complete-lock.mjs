// Lock maintenance for CI and developers: see .ci/run. Usage: node .ci/complete-lock.mjs package-lock.json
// Adds lockfile entries for platform-specific optional dependencies that npm left out because
// this registry mirror only serves the current platform's builds. Entries carry os/cpu guessed
// from the package name so npm never tries to fetch them on a non-matching machine.
import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pk = lock.packages;
let added = 0;
const resolveLoc = (from, name) => {
  let base = from;
  for (;;) {
    const loc = (base ? base + '/' : '') + 'node_modules/' + name;
    if (pk[loc]) return loc;
    if (!base) return null;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
};
const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'cygwin'];
const OS_ALIAS = { win: 'win32', windows: 'win32', macos: 'darwin', mac: 'darwin', sunos: 'sunos', openharmony: 'openharmony' };
const CPU = [
  'arm64',
  'arm',
  'x64',
  'ia32',
  'x86',
  'ppc64',
  'ppc64le',
  's390x',
  'riscv64',
  'loong64',
  'mips64el',
  'wasm32',
  'mips',
  'mipsel',
  'ppc',
  'universal',
];
const CPU_ALIAS = { x86: 'ia32', ppc64le: 'ppc64', loongarch64: 'loong64', universal: null, wasm32: 'wasm32' };
function guess(name) {
  const parts = name.split('/').pop().split(/[-_.]/);
  let os = null,
    cpu = null,
    libc = null;
  for (const p of parts) {
    const lp = p.toLowerCase();
    if (!os && (OS.includes(lp) || OS_ALIAS[lp])) os = OS_ALIAS[lp] ?? lp;
    if (!cpu && CPU.includes(lp)) cpu = lp in CPU_ALIAS ? CPU_ALIAS[lp] : lp;
    if (lp === 'musl' || lp === 'musleabihf') libc = 'musl';
    if (lp === 'gnu' || lp === 'gnueabihf' || lp === 'glibc') libc = 'glibc';
    if (lp === 'arm64' || lp === 'aarch64') cpu = 'arm64';
  }
  return { os, cpu, libc };
}
for (const [loc, entry] of Object.entries({ ...pk })) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolveLoc(loc, name)) continue;
    const version = range.replace(/^[\^~=]/, '');
    const { os, cpu, libc } = guess(name);
    if (!os && !cpu) {
      console.error(`cannot place ${name} (no os/cpu in name); skipped`);
      continue;
    }
    const e = { version };
    if (cpu) e.cpu = [cpu];
    if (entry.dev) e.dev = true;
    if (libc) e.libc = [libc];
    e.optional = true;
    if (os) e.os = [os];
    // Hoist to the top level unless another version already lives there.
    const place = pk['node_modules/' + name] ? `${loc}/node_modules/${name}` : `node_modules/${name}`;
    pk[place] = e;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
