// Tells bin/start.js whether this build of the CLI has the `serve` command (web mode).
import { register } from 'tsx/esm/api';

export async function buildProgram() {
  register();
  const { buildProgram: build } = await import('../src-main/cli/program.ts');
  return build().commands.some((c) => c.name() === 'serve');
}
