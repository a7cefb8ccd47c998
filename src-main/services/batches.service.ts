import { EventEmitter } from 'node:events';
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
} from '../jobs';
import { BatchesRepo, ItemsRepo, ResultsQuery, ResultsRepo, type BatchRecord, type Db } from '../store';
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
} from '../shared/batch';
import { importList } from './batches-import';
import { exportResults, type ExportOptions } from './export.service';
import { toSummary, validateOptions } from './batches-options';

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
}

/** Events of a BatchService. */
export interface BatchServiceEvents {
  progress: [BatchProgress];
}

interface ActiveRun {
  runner: BatchRunner;
  tracker: ProgressTracker;
  stopAs: 'paused' | 'cancelled';
  done: Promise<BatchSummary>;
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
  private readonly fetcher: ImageFetcher;
  private readonly logger: Logger;
  private readonly runs = new Map<number, ActiveRun>();
  private readonly inflight: InflightAnalyses = new Map();

  constructor(private readonly deps: BatchServiceDeps) {
    super();
    this.batches = new BatchesRepo(deps.db);
    this.items = new ItemsRepo(deps.db);
    this.results = new ResultsRepo(deps.db);
    this.query = new ResultsQuery(deps.db);
    this.logger = deps.logger ?? silentLogger;
    this.fetcher =
      deps.fetcher ?? createIntakeFetcher(intakeOptions('desktop', { blockPrivateNetworks: deps.config.blockPrivateNetworks }));
  }

  /** Creates a batch and streams its list (text, CSV or sniffed) into items; does not start it. */
  async create(source: Readable, options: BatchOptions, format: ListFormat = 'auto'): Promise<BatchImportReport> {
    validateOptions(options);
    const id = this.batches.insert(options);
    try {
      const counts = await importList(this.items, id, source, format);
      this.batches.markImported(id);
      return { batch: this.get(id), ...counts };
    } catch (err) {
      this.batches.delete(id); // a list that cannot be read leaves no half batch behind
      throw err;
    }
  }

  list(): BatchSummary[] {
    return this.batches.list().map(toSummary);
  }

  /** Throws `not-found` for an unknown id. */
  get(id: number): BatchSummary {
    return toSummary(this.record(id));
  }

  /**
   * Starts (or resumes) a batch and resolves with its summary when the run stops: finished,
   * paused or cancelled. Items left mid-way by a crash go back to the queue first. Calling it
   * for a batch already running returns the same promise.
   */
  start(id: number): Promise<BatchSummary> {
    try {
      return this.begin(id);
    } catch (err) {
      return Promise.reject(err); // not-found and friends arrive as a rejection, like run failures
    }
  }

  private begin(id: number): Promise<BatchSummary> {
    const active = this.runs.get(id);
    if (active) return active.done;
    const batch = this.record(id);
    if (!batch.importComplete) {
      throw new AppError(
        'invalid-input',
        `Batch ${id} was not fully imported (the import was interrupted); delete it and create it again.`,
      );
    }
    if (batch.status === 'cancelled') throw new AppError('invalid-input', `Batch ${id} was cancelled and cannot be resumed.`);
    const processor = this.processorFor(batch.backend);
    this.items.resetInterrupted(id);
    this.batches.setStatus(id, 'running');
    const tracker = new ProgressTracker(id, this.batches.counts(id), 'running');
    const runner = new BatchRunner(
      {
        items: this.items,
        results: this.results,
        fetcher: this.fetcher,
        processor,
        logger: this.logger,
        inflight: this.inflight,
      },
      {
        batchId: id,
        operation: batch.operation,
        opKey: operationKey(batch.operation, batch.backend),
        downloadConcurrency: batch.downloadConcurrency ?? this.deps.config.downloadConcurrency,
        analysisConcurrency: batch.analysisConcurrency ?? this.deps.config.analysisConcurrency,
        retry: this.deps.retry ?? DEFAULT_RETRY,
        onTransition: (t) => tracker.apply(t),
      },
    );
    const run: ActiveRun = { runner, tracker, stopAs: 'paused', done: Promise.resolve(null as unknown as BatchSummary) };
    run.done = this.drive(id, run);
    this.runs.set(id, run);
    return run.done;
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
    if (batch.status === 'queued' || batch.status === 'running') {
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'paused');
    }
    return this.get(id);
  }

  /** Stops the batch for good: items not finished become `skipped`. */
  async cancel(id: number): Promise<BatchSummary> {
    const active = this.runs.get(id);
    if (active) {
      active.stopAs = 'cancelled';
      active.runner.stop();
      return active.done;
    }
    const batch = this.record(id);
    if (batch.status !== 'done' && batch.status !== 'cancelled') {
      this.items.resetInterrupted(id);
      this.items.skipQueued(id);
      this.batches.finish(id, 'cancelled');
    }
    return this.get(id);
  }

  /** Deletes a batch with its items, results and thumbnails (cancelling it first if running). */
  async delete(id: number): Promise<void> {
    this.record(id);
    if (this.runs.has(id)) await this.cancel(id);
    // Chunks with a turn of the event loop between them: a million-item batch must not freeze the UI.
    // (~200 items ≈ 30 ms of CPU; each item takes its result, tags, categories and thumbnail with it.)
    while (this.items.deleteSome(id, 200) > 0) await new Promise((resolve) => setImmediate(resolve));
    if (!this.batches.delete(id)) throw new AppError('not-found', `There is no batch ${id}.`);
  }

  /** Current progress: live figures while running, stored counts otherwise. */
  progress(id: number): BatchProgress {
    const active = this.runs.get(id);
    if (active) return active.tracker.snapshot();
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

  /** One page of items (any status) matching the filter, sorted. */
  resultsPage(q: ResultQuery): Page<ResultItem> {
    return this.query.page(q);
  }

  /** Counts for the filter panel: totals, status, faces, B/W, image types, top tags/categories/colours. */
  facets(filter: ResultFilter): Facets {
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
    return exportResults(this.query, filter, format, out, opts);
  }

  /** Pauses every running batch and releases the fetcher's connections and the processors' models. */
  async close(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.pause(id)));
    await this.fetcher.close?.();
    await this.deps.processor.close?.();
  }

  private async drive(id: number, run: ActiveRun): Promise<BatchSummary> {
    const emit = (): void => void this.emit('progress', run.tracker.snapshot());
    const timer = setInterval(emit, this.deps.progressIntervalMs ?? 250);
    timer.unref();
    try {
      emit();
      const outcome = await run.runner.run();
      this.items.resetInterrupted(id); // nothing is in flight any more
      if (outcome === 'stopped' && run.stopAs === 'cancelled') {
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
      this.items.resetInterrupted(id);
      this.batches.setStatus(id, 'paused');
      throw err;
    } finally {
      clearInterval(timer);
      this.runs.delete(id);
      const b = this.record(id);
      run.tracker.setCounts(b.counts);
      run.tracker.setStatus(b.status);
      emit();
    }
    return this.get(id);
  }

  private processorFor(backend: Backend): ImageProcessor {
    if (backend.kind === 'local') return this.deps.processor;
    if (!this.deps.remoteProcessor) throw new AppError('invalid-input', 'The remote backend is not available in this build.');
    return this.deps.remoteProcessor(backend);
  }

  private record(id: number): BatchRecord {
    const b = this.batches.get(id);
    if (!b) throw new AppError('not-found', `There is no batch ${id}.`);
    return b;
  }
}
