// A real HTTP client on its own event loop (a worker thread), so it leaves on time even while
// the server in the test's thread blocks that thread with model runs. workerData: { url, method,
// headers, body }. The request starts at once; a message { abortAfterMs } makes the client close
// its socket that many ms later. Posts { ended: 'aborted' } or { ended: <status> } when done.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, method, headers, body } = workerData;
const req = request(url, { method, headers });
let replied = false;
req.on('response', (res) => {
  replied = true;
  res.resume();
  res.on('end', () => parentPort.postMessage({ ended: res.statusCode }));
});
req.on('error', () => {
  if (!replied) parentPort.postMessage({ ended: 'aborted' });
});
parentPort.on('message', ({ abortAfterMs }) => {
  setTimeout(() => req.destroy(), abortAfterMs);
});
req.end(body);
