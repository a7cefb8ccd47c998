/**
 * The ONNX Runtime calls (session loads and runs) in flight on this thread, and a halt that lets
 * no new one start and waits for those running to return.
 *
 * Why: a thread must not be ended while ORT runs on it. `process.exit` (and `worker.terminate()`)
 * stops a worker thread's JavaScript while its native `run()` goes on; when the run returns into
 * the stopped thread, onnxruntime-node throws a C++ exception nothing catches and the whole
 * process aborts ("terminate called after throwing an instance of 'Napi::Error'", SIGABRT, exit
 * 134) instead of exiting with its own code. A host that must exit at once halts every model
 * thread first (`ImageProcessor.halt`), then exits.
 *
 * State is per thread (each worker thread has its own module instance), as the runs it guards are.
 */

let inFlight = 0;
let halted = false;
const onIdle: (() => void)[] = [];

/**
 * Runs `call` (one ORT load or run) counted as in flight. Once halted, `call` never starts and
 * the promise never settles: the process is about to end, and a refusal would travel up as an
 * error and be reported as the image's outcome, when the job must go back to its queue untouched.
 */
export async function gated<T>(call: () => Promise<T>): Promise<T> {
  if (halted) return new Promise<T>(() => undefined);
  inFlight++;
  try {
    return await call();
  } finally {
    inFlight--;
    if (inFlight === 0) for (const resolve of onIdle.splice(0)) resolve();
  }
}

/**
 * Lets no ORT call start on this thread from now on (for good) and resolves once those in flight
 * have returned. A run cannot be interrupted, so this takes up to the longest run (about a second
 * on a busy 2-core machine); callers bound the wait.
 */
export function haltModelRuns(): Promise<void> {
  halted = true;
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => onIdle.push(resolve));
}
