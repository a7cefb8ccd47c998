// A host's stop signals in a child process (stop-signal.test.ts): prints "stopping" on the first
// signal, then blocks the event loop for `BLOCK_MS` (a process descheduled right after announcing
// it stops), then waits. With `again` as argv[2], later signals go to a handler that exits 7.
import { catchStopSignals } from '../../../src-main/cli/stop-signal';

const BLOCK_MS = 1_500;
const stop = catchStopSignals();
if (process.argv[2] === 'again')
  stop.onAgain((signal) => {
    process.stdout.write(`again ${signal}\n`);
    process.exit(7);
  });
// Signal listeners do not keep a process alive; a host's server or queue does.
const alive = setInterval(() => {}, 60_000);
process.stdout.write('ready\n');
const signal = await stop.received;
process.stdout.write(`stopping (${signal})\n`);
const until = Date.now() + BLOCK_MS;
while (Date.now() < until);
setTimeout(() => (clearInterval(alive), process.exit(0)), 10_000);
