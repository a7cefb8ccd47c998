#!/usr/bin/env node
// Runs the TypeScript CLI directly under plain Node via tsx, so `npx picscan` works right after
// `npm ci` with no build step and no global installs.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');
