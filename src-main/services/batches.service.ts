import { EventEmitter } from 'node:events';
import { isAbsolute } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { AppConfig } from '../config';
import { AppError, silentLogger, type Logger } from '../core';
import { intakeOptions } from '../intake';
import {
  BatchRunner,
  createIntakeFetcher,
  DEFAULT_RETRY,
  operationKey,
  storedResult,
  ProgressTracker,
  type ImageFetcher,
  type ImageProcessor,
  type InflightAnalyses,
  type ListFormat,
  type RetryPolicy,
  type RunOutcome,
} from '../jobs';
import {
  BatchesRepo,
  databaseError,
  dbFileIdentity,
  dbFileState,
  ItemsRepo,
  LeasesRepo,
  RedisLeftoversRepo,
  ResultsQuery,
  ResultsRepo,
  saveDbCopy,
  type BatchRecord,
  type Db,
  type DbFileIdentity,
} from '../store';
import type {
  Backend,
  BatchImportReport,
  BatchOptions,
  BatchProgress,
  BatchSummary,
  ExportFormat,
  Facets,
  Page,
  ResultDetail,
  ResultFilter,
  ResultItem,
  ResultQuery,
  UnavailableHost,
  WorkerStatus,
} from '../shared/batch';
import { importList } from './batches-import';
import { cleanUpEndedBatch, cleanupAddress, DistributedRunner, redisForRun, type CoordinatorTuning } from './distributed';
import { exportResults, type ExportOptions } from './export.service';
import { toSummary, validateOptions } from './batches-options';
import { batchLockedError, isLiveHolder, LEASE_HEARTBEAT_MS, RunLease } from './batches-lease';
import { counted } from '../shared/counted';

/** After a cancel of a batch another process runs, how long to wait for that run to stop, in ms. */
const CANCEL_WAIT_MS = 10_000;
const CANCEL_POLL_MS = 100;

/** What a BatchService needs. `fetcher` defaults to image intake built from `config`. */
export interface BatchServiceDeps {
  db: Db;
  config: AppConfig;
  /** The local backend: analyze/detect on this machine. */
  processor: ImageProcessor;
  fetcher?: ImageFetcher;
  /** Switch point for `backend.kind === 'remote'` (the remote API client), when available. */
  remoteProcessor?: (backend: Extract<Backend, { kind: 'remote' }>) => ImageProcessor;
  logger?: Logger;
  retry?: RetryPolicy;
  /** How often progress events go out while a batch runs, in ms. */
  progressIntervalMs?: number;
  /** Decoded pixels a running batch holds at once (default BATCH_PIXEL_BUDGET, jobs/pixel-budget.ts). */
  pixelBudget?: number;
  /** How often a running batch renews its lease and checks for a cancel elsewhere, in ms. */
  leaseHeartbeatMs?: number;
  /** Distributed batches: this install's model set, and the Redis URL (with password) to run them on. */
  distributed?: { modelSet: string; redisUrl?: string | (() => string | undefined); tuning?: Partial<CoordinatorTuning> };
}

/** What drives one run: the local two-stage pipeline, or the distributed coordinator. */
interface Runner {
  run(): Promise<RunOutcome>;
  /** The database error that stopped the run, if any (the batch is then paused, nothing failed). */
  readonly storageError?: unknown;
  /** The service error that stopped the run because it would fail every item (batch paused, nothing failed). */
  readonly haltError?: AppError;
  stop(as?: 'paused' | 'cancelled'): void;
  workers?(): WorkerStatus[];
  /** Distributed runs: connected workers with another model set. */
  mismatchedWorkers?(): string[];
  /** Distributed runs: what is wrong with Redis right now, if anything. */
  redisTrouble?(): string | undefined;
  /** Distributed runs: the unavailable image hosts the workers wait for. */
  unavailableHosts?(): UnavailableHost[];
}

/** Events of a BatchService. */
export interface BatchServiceEvents {
  progress: [BatchProgress];
}

interface ActiveRun {
  runner: Runner;
  tracker: ProgressTracker;
  lease: RunLease;
  stopAs: 'paused' | 'cancelled';
  done: Promise<BatchSummary>;
  /** Set when the database file was removed or replaced under the run (the heartbeat checks). */
  fileLost?: 'removed' | 'replaced';
}

/**
 * The batches use case, the only API the CLI, IPC and HTTP adapters call: create from a list
 * stream, run/pause/resume/cancel with progress events, browse results with filters and facets,
 * and export. One instance per database; batches may run concurrently.
 */
export class BatchService extends EventEmitter<BatchServiceEvents> {
  private readonly batches: BatchesRepo;
  private readonly items: ItemsRepo;
  private readonly results: ResultsRepo;
  private readonly query: ResultsQuery;
  private readonly leases: LeasesRepo;
  private readonly leftovers: RedisLeftoversRepo;
  private readonly fetcher: ImageFetcher;
  private readonly logger: Logger;
  private readonly runs = new Map<number, ActiveRun>();
  private readonly inflight: InflightAnalyses = new Map();
  /** The database file as opened, to notice it removed or replaced while a batch runs. */
  private readonly dbFile: DbFileIdentity | undefined;

  constructor(private readonly deps: BatchServiceDeps) {
    super();
    this.batches = new BatchesRepo(deps.db);
    this.items = new ItemsRepo(deps.db);
    this.results = new ResultsRepo(deps.db);
    this.query = new ResultsQuery(deps.db);
    this.leases = new LeasesRepo(deps.db);
    this.leftovers = new RedisLeftoversRepo(deps.db);
    this.logger = deps.logger ?? silentLogger;
    this.dbFile = dbFileIdentity(deps.db);
    this.fetcher =
      deps.fetcher ??
      createIntakeFetcher(
        intakeOptions('desktop', {
          blockPrivateNetworks: deps.config.blockPrivateNetworks,
          maxRetryAfterMs: deps.config.maxRetryAfterSeconds * 1000,
        }),
        { logger: this.logger },
      );
  }

  /**
   * Creates a batch and streams its list (text, CSV or sniffed) into items; does not start it.
   * `signal` stops the import (Ctrl-C): it rejects with the signal's reason and, as for a list
   * that cannot be read, leaves no half batch behind. `list.baseDir`, an absolute folder, reads
   * relative paths against it: `picscan batch` gives the list file's folder (or the working
   * directory for stdin); the UI and web mode never do, so a relative line stays invalid there.
   */
  async create(
    source: Readable,
    options: BatchOptions,
    format: ListFormat = 'auto',
    signal?: AbortSignal,
    list: { baseDir?: string } = {},
  ): Promise<BatchImportReport> {
    validateOptions(options);
    if (list.baseDir !== undefined && !isAbsolute(list.baseDir))
      throw new AppError('invalid-parameter', `The list's folder must be an absolute path, not "${list.baseDir}".`);
    const id = this.batches.insert(options);
    // The run lease, held while the list streams in: a delete, pause or resume from another
    // process is refused (naming the import) instead of acting on half a list under the importer.
    const lease = RunLease.acquire(this.leases, id);
    const heartbeat = setInterval(() => lease.renew(), this.deps.leaseHeartbeatMs ?? LEASE_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const counts = await importList(this.items, id, source, format, signal, list.baseDir);
      this.batches.markImported(id);
      // Cancelled from another process while the list was read: the lines read after it are skipped too.
      if (this.batches.status(id) === 'cancelled') this.items.skipQueued(id);
      return { batch: this.get(id), ...counts };
    } catch (err) {
      await this.removeItems(id);
      this.batches.delete(id);
      throw err;
    } finally {
      clearInterval(heartbeat);
      lease.release();
    }
  }

  list(): BatchSummary[] {
    return this.batches.list().map((b) => this.summaryOf(b));
  }

  /** The batches this process is running now (not those of other processes sharing the file). */
  runningHere(): number[] {
    return [...this.runs.keys()];
  }

  /**
   * Batches stored as running that no process runs (a crash or `kill -9` stopped them): lists
   * show them as paused, yet unlike a batch the user paused they were meant to go on.
   */
  interrupted(): number[] {
    return this.batches
      .list()
      .filter((b) => b.status === 'running' && b.importComplete && !b.deleteStarted && this.summaryOf(b).status === 'paused')
      .map((b) => b.id);
  }

  /** Throws `not-found` for an unknown id. */
  get(id: number): BatchSummary {
    return this.summaryOf(this.record(id));
  }

  /**
   * A batch stored as running that no process runs any more (killed, crashed, machine off: no
   * run here and no live lease) shows as paused, which it is in effect: nothing moves, and a
   * resume (or the app's next start) continues it where it stopped.
   */
  private summaryOf(b: BatchRecord): BatchSummary {
    const summary = toSummary(b);
    if (summary.status !== 'running' || this.runs.has(b.id)) return summary;
    const holder = this.leases.holder(b.id);
    return holder && isLiveHolder(holder) ? summary : { ...summary, status: 'paused' };
  }

  /**
   * Starts (or resumes) a batch and resolves with its summary when the run stops: finished,
   * paused or cancelled. Items left mid-way by a crash go back to the queue first. Calling it
   * for a batch already running returns the same promise. A batch that another process is
   * running is refused with `batch-locked` naming that process (pid, host, start time).
   */
  start(id: number): Promise<BatchSummary> {
    try {
      return this.begin(id);
    } catch (err) {
      return Promise.reject(err); // not-found and friends arrive as a rejection, like run failures
    }
  }

  /**
   * Throws what `start` would refuse with, without starting: an unknown batch, one not fully
   * imported, a cancelled one, or one another process is running (`batch-locked`). Lets an
   * adapter refuse before it loads the models.
   */
  checkStartable(id: number): BatchRecord {
    const batch = this.record(id);
    if (batch.deleteStarted) {
      throw new AppError(
        'invalid-input',
        `Batch ${id} is being deleted (a delete of it did not finish, ${counted(batch.counts.total, 'item')} left); finish with: picscan delete ${id}`,
      );
    }
    if (!batch.importComplete) {
      throw new AppError(
        'invalid-input',
        `Batch ${id} was not fully imported (the import was interrupted, or is still going on); delete it and create it again.`,
      );
    }
    if (batch.status === 'cancelled') throw new AppError('invalid-input', `Batch ${id} was cancelled and cannot be resumed.`);
    if (!this.runs.has(id)) this.refuseIfRunElsewhere(id);
    return batch;
  }

  private begin(id: number): Promise<BatchSummary> {
    const active = this.runs.get(id);
    if (active) return active.done;
    const batch = this.checkStartable(id);
    // Checked before anything changes: a missing Redis URL or backend leaves the batch as it was.
    const makeRunner = this.runnerFactory(batch);
    // The lease first: resetting items "left mid-way" must never touch another process's run.
    const lease = RunLease.acquire(this.leases, id);
    try {
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'running');
    } catch (err) {
      lease.release();
      throw err;
    }
    const tracker = new ProgressTracker(id, this.batches.counts(id), 'running');
    const runner = makeRunner(tracker);
    const run: ActiveRun = { runner, tracker, lease, stopAs: 'paused', done: Promise.resolve(null as unknown as BatchSummary) };
    run.done = this.drive(id, run);
    this.runs.set(id, run);
    return run.done;
  }

  /**
   * Puts the batch's failed items back in the queue (those that were tried: an invalid list line
   * would fail again) so that a start runs them again, e.g. after the image host or the remote
   * service was down. Refused while the batch runs, and for a cancelled or half-imported batch.
   * Returns how many items were queued again.
   */
  requeueFailed(id: number): number {
    if (this.runs.has(id)) throw new AppError('invalid-input', `Batch ${id} is running; retry its failed items once it has stopped.`);
    const batch = this.checkStartable(id);
    const requeued = this.items.requeueFailed(id);
    if (requeued > 0 && batch.status === 'done') this.batches.setStatus(id, 'paused');
    return requeued;
  }

  /** Same as start: resumes a paused or interrupted batch. */
  resume(id: number): Promise<BatchSummary> {
    return this.start(id);
  }

  /** Stops a running batch (downloads abort, running analyses finish and are kept); resolves when stopped. */
  async pause(id: number): Promise<BatchSummary> {
    const active = this.runs.get(id);
    if (active) {
      active.stopAs = 'paused';
      active.runner.stop();
      return active.done;
    }
    const batch = this.record(id);
    this.refuseIfRunElsewhere(id);
    if (batch.status === 'queued' || batch.status === 'running') {
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'paused');
    }
    return this.get(id);
  }

  /**
   * Stops the batch for good: items not finished become `skipped`. A batch another process is
   * running is marked cancelled here; that process notices within a heartbeat
   * (`LEASE_HEARTBEAT_MS`), stops, and ends it as cancelled; this call waits for that (up to
   * `CANCEL_WAIT_MS`).
   */
  async cancel(id: number): Promise<BatchSummary> {
    const active = this.runs.get(id);
    if (active) {
      active.stopAs = 'cancelled';
      active.runner.stop('cancelled');
      return active.done;
    }
    const batch = this.record(id);
    const holder = this.leases.holder(id);
    if (holder && isLiveHolder(holder) && batch.status !== 'done' && batch.status !== 'cancelled') {
      // Its items in flight are that process's: only the queued ones are skipped from here.
      this.items.skipQueued(id);
      this.batches.finish(id, 'cancelled');
      for (let waited = 0; waited < CANCEL_WAIT_MS && this.leases.holder(id)?.token === holder.token; waited += CANCEL_POLL_MS) {
        await new Promise((resolve) => setTimeout(resolve, CANCEL_POLL_MS));
      }
      return this.get(id);
    }
    if (batch.status !== 'done' && batch.status !== 'cancelled') {
      this.items.resetInterrupted(id);
      this.items.skipQueued(id);
      this.batches.finish(id, 'cancelled');
      await this.releaseRedisState(batch);
    }
    return this.get(id);
  }

  /**
   * Deletes a batch with its items, results and thumbnails (cancelling it first if running).
   * `signal` stops it between chunks (Ctrl-C): the batch then keeps the items not deleted yet.
   */
  async delete(id: number, signal?: AbortSignal): Promise<void> {
    this.record(id);
    if (this.runs.has(id)) await this.cancel(id);
    else {
      this.refuseIfRunElsewhere(id);
      const batch = this.record(id);
      if (batch.status !== 'done' && batch.status !== 'cancelled') await this.releaseRedisState(batch);
    }
    // Before the first chunk: a crash part way must leave a batch that shows as being deleted and
    // never runs on what is left.
    this.batches.markDeleteStarted(id);
    await this.removeItems(id, signal);
    if (!this.batches.delete(id)) throw this.noBatch(id);
  }

  /**
   * Deletes a batch's items in chunks with a turn of the event loop between them: a million-item
   * batch must not freeze the UI nor hold the write lock other processes wait for.
   * (~200 items ≈ 30 ms of CPU; each item takes its result, tags, categories and thumbnail with it.)
   */
  private async removeItems(id: number, signal?: AbortSignal): Promise<void> {
    while (this.items.deleteSome(id, 200) > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
  }

  /** Current progress: live figures while running, stored counts otherwise. */
  progress(id: number): BatchProgress {
    const active = this.runs.get(id);
    if (active) return this.snapshot(active);
    const b = this.record(id);
    return {
      batchId: id,
      status: b.status,
      counts: b.counts,
      imagesPerSecond: 0,
      etaSeconds: b.counts.queued + b.counts.running === 0 ? 0 : null,
    };
  }

  /** Subscribes to progress of every batch; returns the unsubscribe function. */
  onProgress(listener: (p: BatchProgress) => void): () => void {
    this.on('progress', listener);
    return () => this.off('progress', listener);
  }

  /**
   * One page of items (any status) matching the filter, sorted. A filter on a batch that does not
   * exist (deleted while a view showed it) throws `not-found` rather than answering an empty page.
   */
  resultsPage(q: ResultQuery): Page<ResultItem> {
    this.requireBatchOf(q.filter);
    return this.query.page(q);
  }

  /** Counts for the filter panel: totals, status, faces, B/W, image types, top tags/categories/colours. */
  facets(filter: ResultFilter): Facets {
    this.requireBatchOf(filter);
    return this.query.facets(filter);
  }

  /** One item with its full stored response; throws `not-found`. */
  result(itemId: number): ResultDetail {
    const item = this.query.item(itemId);
    if (!item) throw new AppError('not-found', `There is no item ${itemId}.`);
    return { item, response: this.query.response(itemId) };
  }

  /**
   * Analyses one finished item again with its batch's operation and backend (a model or
   * gallery changed, or a transient failure is over) and replaces its stored result. The old
   * result stays until the new one is stored: a failure leaves the item as it was and throws.
   */
  async reanalyze(itemId: number, signal: AbortSignal = new AbortController().signal): Promise<ResultItem> {
    const current = this.query.item(itemId);
    if (!current) throw new AppError('not-found', `There is no item ${itemId}.`);
    if (current.status !== 'done' && current.status !== 'failed') {
      throw new AppError('invalid-input', `Item ${itemId} is ${current.status}; re-analyse it once it has finished.`);
    }
    const batch = this.record(current.batchId);
    const startedMs = Date.now();
    const image = await this.fetcher.fetch(current.url, signal);
    const processed = await this.processorFor(batch.backend).process(image, batch.operation, signal);
    const opKey = operationKey(batch.operation, batch.backend);
    const analyzeMs = Date.now() - startedMs;
    if (!this.results.replace(storedResult({ itemId, batchId: batch.id, opKey, image, processed, analyzeMs }))) {
      throw new AppError('invalid-input', `Item ${itemId} changed while it was being re-analysed; try again.`);
    }
    this.emit('progress', this.progress(batch.id));
    return this.query.item(itemId)!;
  }

  /** The item's thumbnail (WebP), or undefined when it has none. */
  thumbnail(itemId: number): { mime: string; bytes: Uint8Array } | undefined {
    return this.query.thumbnail(itemId);
  }

  /** Writes the items matching the filter to `out` as CSV, a JSON array or NDJSON; resolves to the row count. */
  export(filter: ResultFilter, format: ExportFormat, out: Writable, opts?: ExportOptions): Promise<number> {
    try {
      this.requireBatchOf(filter);
    } catch (err) {
      return Promise.reject(err);
    }
    return exportResults(this.query, filter, format, out, opts);
  }

  /** Pauses every running batch and releases the fetcher's connections and the processors' models. */
  async close(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.pause(id)));
    await this.fetcher.close?.();
    await this.deps.processor.close?.();
  }

  private async drive(id: number, run: ActiveRun): Promise<BatchSummary> {
    const emit = (): void => void this.emit('progress', this.snapshot(run));
    const timer = setInterval(emit, this.deps.progressIntervalMs ?? 250);
    timer.unref();
    const heartbeat = setInterval(() => this.heartbeat(id, run), this.deps.leaseHeartbeatMs ?? LEASE_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      emit();
      const outcome = await run.runner.run();
      if (run.fileLost) throw this.pausedByLostFile(id, run, run.fileLost);
      if (run.runner.storageError !== undefined) throw this.pausedByStorage(id, run.runner.storageError);
      const halted = run.runner.haltError;
      if (halted && run.stopAs !== 'cancelled') throw this.pausedByService(id, halted);
      this.items.resetInterrupted(id); // nothing is in flight any more
      // A cancel from another process sets the stored status; it wins over "finished".
      const cancelled = (outcome === 'stopped' && run.stopAs === 'cancelled') || this.batches.status(id) === 'cancelled';
      if (cancelled) {
        this.items.skipQueued(id);
        this.batches.finish(id, 'cancelled');
      } else if (outcome === 'stopped') {
        this.batches.setStatus(id, 'paused');
      } else if (this.batches.counts(id).queued === 0) {
        this.batches.finish(id, 'done');
      } else {
        this.batches.setStatus(id, 'paused');
      }
    } catch (err) {
      this.logger.error('batch run failed', { batchId: id, error: String((err as Error)?.stack ?? err) });
      this.settleAfterFailure(id);
      throw err;
    } finally {
      clearInterval(timer);
      clearInterval(heartbeat);
      this.runs.delete(id);
      try {
        run.lease.release();
        const b = this.record(id);
        run.tracker.setCounts(b.counts);
        run.tracker.setStatus(b.status);
        emit();
      } catch (err) {
        this.logger.error('batch run could not be closed cleanly', { batchId: id, error: String(err) });
      }
    }
    return this.get(id);
  }

  /** Renews the run's lease and stops the run when another process cancelled the batch. */
  private heartbeat(id: number, run: ActiveRun): void {
    try {
      const state = this.dbFile ? dbFileState(this.dbFile) : 'same';
      if (state !== 'same') {
        run.fileLost = state;
        run.runner.stop('paused');
        return;
      }
      const kept = run.lease.renew();
      const cancelledElsewhere = this.batches.status(id) === 'cancelled';
      if (cancelledElsewhere) run.stopAs = 'cancelled';
      if (!kept || cancelledElsewhere) run.runner.stop(run.stopAs);
    } catch (err) {
      // A locked or full database: the next beat tries again; writes of the run report it.
      this.logger.warn('batch heartbeat failed', { batchId: id, error: String(err) });
    }
  }

  /** The run stopped because the service refuses every item (key, credit): the batch pauses, nothing is failed. */
  private pausedByService(id: number, cause: AppError): AppError {
    return new AppError(cause.code, `Batch ${id} paused: ${cause.message} Its unfinished items stay queued, none was marked failed.`, {
      cause,
      details: { ...cause.details, batchId: id },
    });
  }

  /** The run stopped because the database refused a write: the batch pauses, nothing is failed. */
  private pausedByStorage(id: number, cause: unknown): AppError {
    const reason = databaseError(this.deps.db.name, cause);
    return new AppError(
      'storage-failed',
      `Batch ${id} paused: ${reason.message} Its unfinished items stay queued, none was marked failed.`,
      { cause, details: { ...reason.details, batchId: id } },
    );
  }

  /**
   * The database file was removed or replaced while the batch ran: every write since went to a
   * file no path names, lost when this process exits. The run is stopped and paused, and what the
   * connection holds is saved as a file again (back at its path if free, else beside it).
   */
  private pausedByLostFile(id: number, run: ActiveRun, how: 'removed' | 'replaced'): AppError {
    const file = this.deps.db.name;
    let saved: string;
    try {
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'paused');
      run.lease.release(); // the saved copy must not show this process as running it
      saved = saveDbCopy(this.deps.db, this.dbFile!);
    } catch (err) {
      return new AppError(
        'storage-failed',
        `Batch ${id} stopped: the database ${file} was ${how} while it ran, and its results could not be saved elsewhere (${String(err)}).`,
        { cause: err, details: { file } },
      );
    }
    const db = saved === file ? '' : ` --db ${saved}`;
    return new AppError(
      'storage-failed',
      `Batch ${id} paused: the database ${file} was ${how} while it ran; everything it held was saved to ${saved}. ` +
        `Continue with: picscan resume ${id}${db}`,
      { details: { file, saved } },
    );
  }

  /** Best effort after a failed run: items mid-way back to the queue, the batch paused. */
  private settleAfterFailure(id: number): void {
    try {
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'paused');
    } catch (err) {
      // The next start resets items left mid-way; the status is corrected then.
      this.logger.error('batch could not be marked paused', { batchId: id, error: String(err) });
    }
  }

  /**
   * A distributed batch that has run keeps state in Redis until it ends: when it ends here
   * (cancelled or deleted while not running), that state is removed now, or noted for the next
   * distributed run on its Redis when Redis does not answer (distributed/batch-cleanup.ts).
   */
  private async releaseRedisState(batch: BatchRecord): Promise<void> {
    if (batch.backend.kind !== 'distributed' || batch.status === 'queued') return;
    const dist = this.deps.distributed;
    const given = typeof dist?.redisUrl === 'function' ? dist.redisUrl() : dist?.redisUrl;
    const address = cleanupAddress(batch.backend.redisUrl, given);
    if (!dist?.modelSet) this.leftovers.note({ queueKey: batch.backend.queueKey, redisUrl: address.stored });
    else await cleanUpEndedBatch(address, batch.backend.queueKey, dist.modelSet, this.leftovers, this.logger);
  }

  /** Throws `batch-locked` when another process holds a live lease on the batch. */
  private refuseIfRunElsewhere(id: number): void {
    const holder = this.leases.holder(id);
    if (holder && isLiveHolder(holder)) throw batchLockedError(holder, this.batches.get(id)?.importComplete === false);
  }

  private runnerFactory(batch: BatchRecord): (tracker: ProgressTracker) => Runner {
    const opKey = operationKey(batch.operation, batch.backend);
    const onTransition = (tracker: ProgressTracker) => (t: Parameters<ProgressTracker['apply']>[0]) => tracker.apply(t);
    if (batch.backend.kind === 'distributed') {
      const dist = this.deps.distributed;
      if (!dist?.modelSet) throw new AppError('invalid-input', "Distributed batches need this install's model manifest, which is missing.");
      const given = typeof dist.redisUrl === 'function' ? dist.redisUrl() : dist.redisUrl;
      const redis = redisForRun(batch.backend.redisUrl, given);
      const { queueKey } = batch.backend;
      return (tracker) =>
        new DistributedRunner(
          { db: this.deps.db, items: this.items, results: this.results, logger: this.logger },
          {
            batchId: batch.id,
            queueKey,
            operation: batch.operation,
            opKey,
            modelSet: dist.modelSet,
            redis,
            tuning: dist.tuning,
            onTransition: onTransition(tracker),
          },
        );
    }
    const processor = this.processorFor(batch.backend);
    return (tracker) =>
      new BatchRunner(
        { items: this.items, results: this.results, fetcher: this.fetcher, processor, logger: this.logger, inflight: this.inflight },
        {
          batchId: batch.id,
          operation: batch.operation,
          opKey,
          downloadConcurrency: batch.downloadConcurrency ?? this.deps.config.downloadConcurrency,
          analysisConcurrency: batch.analysisConcurrency ?? this.deps.config.analysisConcurrency,
          retry: this.deps.retry ?? DEFAULT_RETRY,
          pixelBudget: this.deps.pixelBudget,
          onTransition: onTransition(tracker),
        },
      );
  }

  private processorFor(backend: Backend): ImageProcessor {
    // Distributed workers run this install's models: a re-analysis runs them here.
    if (backend.kind === 'local' || backend.kind === 'distributed') return this.deps.processor;
    if (!this.deps.remoteProcessor) throw new AppError('invalid-input', 'The remote backend is not available in this build.');
    return this.deps.remoteProcessor(backend);
  }

  private snapshot(run: ActiveRun): BatchProgress {
    const p = run.tracker.snapshot();
    const workers = run.runner.workers?.();
    const mismatchedWorkers = run.runner.mismatchedWorkers?.();
    const redisTrouble = run.runner.redisTrouble?.();
    // A distributed batch's downloads run on the workers; a local one's through this fetcher.
    const unavailableHosts = run.runner.unavailableHosts ? run.runner.unavailableHosts() : this.fetcher.unavailableHosts?.(p.batchId);
    return {
      ...p,
      ...(workers ? { workers } : {}),
      ...(mismatchedWorkers?.length ? { mismatchedWorkers } : {}),
      ...(redisTrouble ? { redisTrouble } : {}),
      ...(unavailableHosts?.length ? { unavailableHosts } : {}),
    };
  }

  private record(id: number): BatchRecord {
    const b = this.batches.get(id);
    if (!b) throw this.noBatch(id);
    return b;
  }

  /**
   * A query's batch must exist: "0 results" for a deleted batch reads as a batch emptied, not gone.
   * Public for adapters that must refuse before they start a reply (web mode's export download).
   */
  requireBatchOf(filter: ResultFilter): void {
    if (filter.batchId !== undefined && this.batches.status(filter.batchId) === undefined) throw this.noBatch(filter.batchId);
  }

  /** `not-found` that says whether the id was a batch once (deleted, e.g. by another window or process). */
  private noBatch(id: number): AppError {
    return this.batches.wasGiven(id)
      ? new AppError('not-found', `Batch ${id} no longer exists: it was deleted.`, { details: { batchId: id } })
      : new AppError('not-found', `There is no batch ${id}.`, { details: { batchId: id } });
  }
}
