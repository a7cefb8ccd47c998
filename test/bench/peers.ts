// `npm run bench -- peers`: picscan against @vladmandic/human + nsfwjs on TF.js wasm, in one run.
// The peers are build-and-measurement tooling, not root dependencies: this installs the tooling
// package on first use (tooling/install.mjs) and runs tooling/bench/peers.ts with the same flags.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
execFileSync(process.execPath, [join(root, 'tooling/install.mjs')], { stdio: 'inherit' });
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'tooling/bench/peers.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
