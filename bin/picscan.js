#!/usr/bin/env node
// Runs the TypeScript CLI under plain Node, so `npx picscan` works right after `npm ci` with no
// build step and no global installs: from a bundle of the sources that esbuild makes in `.cache/`
// (source-bundle.js; no tsx thread beside the app's, ≈ 30 MB less per thread), or under tsx when
// that bundle cannot be made (a read-only install; a syntax error, which tsx then reports).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleApp } from './source-bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let bundle;
try {
  bundle = bundleApp(root);
} catch {
  bundle = undefined;
}
if (bundle) {
  // Stack traces name the TypeScript sources (the bundle's maps point at them).
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(join(bundle, 'cli.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src-main/cli/main.ts');
}
