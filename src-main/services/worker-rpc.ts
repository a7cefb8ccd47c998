/**
 * Request/reply over a worker thread, written once for every worker (analyze's branch, the batch
 * models): numbered calls, cancellation, typed errors back as `AppError`s, a crash failing every
 * call in flight once, a close handshake that lets the worker release its models first, and a
 * halt handshake that lets the process exit at once without ending a thread inside a model run.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { AppError, toWireError, type Logger } from '../core';
import type { WireError } from '../shared/errors';

/** Parent → worker. */
export type RpcRequest<Req> =
  { type: 'call'; id: number; request: Req } | { type: 'cancel'; id: number } | { type: 'close' } | { type: 'halt' };

/** Worker → parent. */
export type RpcReply<Res> =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'halted' }
  | { type: 'init-error'; error: WireError; stack?: string }
  | { type: 'done'; id: number; result: Res }
  | { type: 'error'; id: number; error: WireError; stack?: string };

interface Pending<Res> {
  resolve: (r: Res) => void;
  reject: (e: unknown) => void;
}

/** The parent's handle on one worker. */
export interface RpcWorker<Req, Res> {
  /** Resolves once the worker is ready; rejects with its set-up error (an `AppError`) or its crash. */
  readonly started: Promise<void>;
  /** Why the worker can take no more calls (it crashed or exited); undefined while it can. */
  readonly stopped: AppError | undefined;
  /** One call; `transfer` moves buffers instead of copying them. */
  call(request: Req, signal?: AbortSignal, transfer?: ArrayBuffer[]): Promise<Res>;
  /** Asks the worker to release its models (waits up to `CLOSE_WAIT_MS`), then ends the thread. */
  close(): Promise<void>;
  /**
   * Asks the worker to start no more model runs (for good) and resolves once those it has running
   * have returned, or it has stopped; the caller bounds the wait. Before exiting without `close()`.
   */
  halt(): Promise<void>;
}

/** How long `close()` waits for the worker to release its models before ending it, ms. */
export const CLOSE_WAIT_MS = 5_000;

const fromWire = (error: WireError): AppError => new AppError(error.code, error.message, { details: error.details });

/**
 * Starts `entry` with `workerData`. `name` ("analyze worker") names it in logs and errors. A call
 * failing with `internal` is logged with the worker's stack; other codes are the caller's answer.
 */
export function startRpcWorker<Req, Res>(entry: URL, workerData: unknown, opts: { name: string; logger: Logger }): RpcWorker<Req, Res> {
  const { name, logger } = opts;
  const worker = new Worker(entry, { workerData });
  const pending = new Map<number, Pending<Res>>();
  let nextId = 1;
  let stopped: AppError | undefined;
  let closed: (() => void) | undefined;
  const halted: (() => void)[] = [];
  const failAll = (err: AppError): void => {
    stopped ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (msg: RpcReply<Res>) => {
      if (msg.type === 'ready') return resolve();
      if (msg.type === 'closed') return closed?.();
      if (msg.type === 'halted') return halted.splice(0).forEach((resolve) => resolve());
      if (msg.type === 'init-error') {
        const err = fromWire(msg.error);
        failAll(err);
        return reject(Object.assign(err, { workerStack: msg.stack }));
      }
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.type === 'done') return p.resolve(msg.result);
      if (msg.error.code === 'internal') logger.error(`call failed in the ${name}`, { stack: msg.stack });
      p.reject(fromWire(msg.error));
    });
    worker.on('error', (err: Error) => {
      logger.error(`${name} crashed`, { error: String(err.stack ?? err) });
      failAll(new AppError('model-failed', `The ${name} stopped unexpectedly.`, { cause: err }));
      reject(err);
    });
    worker.on('exit', () => {
      const err = new AppError('model-failed', `The ${name} has stopped.`);
      failAll(err);
      halted.splice(0).forEach((resolve) => resolve()); // a stopped thread runs nothing
      reject(err);
    });
  });
  started.catch(() => undefined); // the caller may look only at `stopped`

  return {
    started,
    get stopped() {
      return stopped;
    },
    call(request, signal, transfer) {
      if (stopped) return Promise.reject(stopped);
      if (signal?.aborted) return Promise.reject(new AppError('cancelled', 'The operation was cancelled.'));
      const id = nextId++;
      return new Promise<Res>((resolve, reject) => {
        const onAbort = (): void => worker.postMessage({ type: 'cancel', id } satisfies RpcRequest<Req>);
        signal?.addEventListener('abort', onAbort, { once: true });
        const settle = (): void => signal?.removeEventListener('abort', onAbort);
        pending.set(id, { resolve: (r) => (settle(), resolve(r)), reject: (e) => (settle(), reject(e)) });
        worker.postMessage({ type: 'call', id, request } satisfies RpcRequest<Req>, transfer);
      });
    },
    async close() {
      if (!stopped) {
        await new Promise<void>((resolve) => {
          closed = resolve;
          worker.postMessage({ type: 'close' } satisfies RpcRequest<Req>);
          setTimeout(resolve, CLOSE_WAIT_MS).unref();
        });
      }
      await worker.terminate();
    },
    halt() {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        halted.push(resolve);
        worker.postMessage({ type: 'halt' } satisfies RpcRequest<Req>);
      });
    },
  };
}

/** The worker's side: what `setup` builds answers the calls until the parent asks to close. */
export interface RpcHandler<Req, Res> {
  handle(request: Req, signal: AbortSignal): Promise<Res>;
  close(): Promise<void>;
  /** Starts no more model runs (here and in the worker's own workers); resolves once those running have returned. */
  halt?(): Promise<void>;
}

/**
 * Runs in the worker thread: builds the handler (a failure goes back as `init-error`), says
 * `ready`, then answers calls, honours cancels, on `close` releases it and says `closed`, and on
 * `halt` halts it and says `halted`.
 */
export async function serveRpc<Req, Res>(setup: () => RpcHandler<Req, Res> | Promise<RpcHandler<Req, Res>>): Promise<void> {
  const port = parentPort!;
  const aborts = new Map<number, AbortController>();
  const stackOf = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  let handler: RpcHandler<Req, Res>;
  try {
    handler = await setup();
  } catch (err) {
    port.postMessage({ type: 'init-error', error: toWireError(err), stack: stackOf(err) } satisfies RpcReply<Res>);
    return;
  }
  port.on('message', (msg: RpcRequest<Req>) => {
    if (msg.type === 'cancel') return void aborts.get(msg.id)?.abort();
    if (msg.type === 'close') {
      // Model runs first: a call the parent gave up on (a paused batch's cancelled item) may
      // still be inside an ONNX Runtime run, and releasing its session under it aborts the
      // process ('Napi::Error'). The parent bounds the whole close (CLOSE_WAIT_MS).
      void Promise.resolve(handler.halt?.())
        .catch(() => undefined)
        .then(() => handler.close())
        .finally(() => port.postMessage({ type: 'closed' } satisfies RpcReply<Res>));
      return;
    }
    if (msg.type === 'halt') {
      void Promise.resolve(handler.halt?.()).finally(() => port.postMessage({ type: 'halted' } satisfies RpcReply<Res>));
      return;
    }
    const controller = new AbortController();
    aborts.set(msg.id, controller);
    // A handler that throws at once answers like one that rejects: the worker stays up.
    Promise.resolve()
      .then(() => handler.handle(msg.request, controller.signal))
      .then(
        (result) => port.postMessage({ type: 'done', id: msg.id, result } satisfies RpcReply<Res>),
        (err: unknown) =>
          port.postMessage({ type: 'error', id: msg.id, error: toWireError(err), stack: stackOf(err) } satisfies RpcReply<Res>),
      )
      .finally(() => aborts.delete(msg.id));
  });
  port.postMessage({ type: 'ready' } satisfies RpcReply<Res>);
}
