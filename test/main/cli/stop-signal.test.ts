import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/paths';

// The worker's "second signal: stop now" (cli/stop-signal.ts) in a real child process: the second
// SIGTERM is sent the moment the child says it is stopping, while it is still busy (as a loaded
// machine deschedules it), and must reach the handler, never Node's default action.

interface Run {
  proc: ChildProcess;
  output: () => string;
  waitFor: (text: string) => Promise<void>;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runChild(mode: 'again' | 'none'): Run {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/main/cli/stop-signal-child.ts'), mode], {
    cwd: repoRoot,
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (text: string): Promise<void> => {
    const until = Date.now() + 30_000;
    while (!out.includes(text)) {
      if (Date.now() > until || proc.exitCode !== null || proc.signalCode !== null) throw new Error(`no "${text}"; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { proc, output: () => out, waitFor, closed };
}

describe('stop signals: a second one right after the first', { timeout: 60_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s twice: the second reaches the handler while the process is busy', async (signal) => {
    const child = runChild('again');
    await child.waitFor('ready');
    child.proc.kill(signal);
    await child.waitFor('stopping');
    child.proc.kill(signal);
    expect(await child.closed, child.output()).toEqual({ code: 7, signal: null });
    expect(child.output()).toContain(`again ${signal}`);
  });

  it('without a handler for later signals, the second takes the default action (ends by the signal)', async () => {
    const child = runChild('none');
    await child.waitFor('ready');
    child.proc.kill('SIGTERM');
    await child.waitFor('stopping');
    child.proc.kill('SIGTERM');
    expect(await child.closed, child.output()).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
