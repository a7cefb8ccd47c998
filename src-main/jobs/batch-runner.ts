import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import { AppError, isCancellation, sleep, type Logger } from '../core';
import type { BatchOperation } from '../shared/batch';
import { isBusyError, isStorageError, type ItemsRepo, type ResultsRepo, type WorkItem } from '../store';
import type { ItemTransition } from './progress';
import { haltsRun, isTransient, retryDelayMs, type RetryPolicy } from './retry';
import type { FetchedImage, FetchOptions, ImageFetcher, ImageProcessor } from './types';
import { DownloadStage } from './download-stage';
import { storedResult } from './stored-result';
import { PixelBudget } from './pixel-budget';

/** Analyses in flight, by `sha256|opKey`, shared by every runner so identical bytes run once. */
export type InflightAnalyses = Map<string, Promise<unknown>>;

/** What a runner uses: the repos, the injected fetch/process steps, and the shared in-flight map. */
export interface RunnerDeps {
  items: ItemsRepo;
  results: ResultsRepo;
  fetcher: ImageFetcher;
  processor: ImageProcessor;
  logger: Logger;
  inflight: InflightAnalyses;
}

/** One run of one batch: what to compute, how many at once, how to retry, whom to tell. */
export interface RunSettings {
  batchId: number;
  operation: BatchOperation;
  opKey: string;
  downloadConcurrency: number;
  analysisConcurrency: number;
  retry: RetryPolicy;
  /** Decoded pixels held at once (default BATCH_PIXEL_BUDGET). */
  pixelBudget?: number;
  /** Called after each persisted transition. */
  onTransition: (t: ItemTransition, info: { itemId: number; reused?: boolean }) => void;
}

/** How a run ended. `stopped` = pause or cancel asked; the caller decides which. */
export type RunOutcome = 'finished' | 'stopped';

const CLAIM_CHUNK = 256;

/**
 * A write that still finds the database locked after the connection's busy timeout (another
 * process holding the write lock that long) is tried again this many times, waiting
 * `BUSY_RETRY_DELAY_MS` × attempt in between. A lock is never an item's failure: when the tries
 * run out, the run stops and the batch pauses, as for a write error.
 */
const BUSY_RETRIES = 3;
const BUSY_RETRY_DELAY_MS = 250;

/**
 * Runs the queued items of one batch through two p-queues: downloads (I/O bound, default 16)
 * and analyses (CPU bound, default = cores). The feeder waits while either stage is full, so at
 * most ~download + 3×analysis images are held in memory; items waiting for an unavailable image
 * host hold neither a download slot nor a place in that bound (download-stage.ts), so the other
 * hosts' images go on. Every status change is persisted
 * before it is reported; a result and `done` are written in one transaction.
 */
export class BatchRunner {
  private readonly controller = new AbortController();
  /** Decoded pixels held from decode until the analysis ends (the image counts alone do not bound memory). */
  readonly pixels: PixelBudget;
  private storageFailure: unknown;
  private haltingFailure: AppError | undefined;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly s: RunSettings,
  ) {
    // One signal is shared by every fetch, sleep and analysis of the run.
    setMaxListeners(0, this.controller.signal);
    this.pixels = new PixelBudget(s.pixelBudget);
  }

  /** Asks the run to stop: nothing new starts, downloads abort, running analyses finish and are kept. */
  stop(): void {
    this.controller.abort();
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * The database error that stopped the run (disk full, I/O error, read-only file, a lock held
   * too long), if any. Items in flight were put back in the queue (or are left mid-way, which
   * the next start resets), never marked failed.
   */
  get storageError(): unknown {
    return this.storageFailure;
  }

  /**
   * The error that stopped the run because it would fail every item alike (the service refused
   * the key, no credit left; `haltsRun`), if any. The item that met it went back to the queue.
   */
  get haltError(): AppError | undefined {
    return this.haltingFailure;
  }

  async run(): Promise<RunOutcome> {
    const { signal } = this.controller;
    const downloads = new PQueue({ concurrency: this.s.downloadConcurrency });
    const analyses = new PQueue({ concurrency: this.s.analysisConcurrency });
    const stage = new DownloadStage();
    // Downloads run in `downloads`' slots; the rest of an item's fetch (its turn to be fetched
    // from an unavailable host, retry back-offs) waits outside them.
    const slot = <T>(download: () => Promise<T>): Promise<T> => downloads.add(download);
    let cursor = 0;
    feed: while (!signal.aborted) {
      let chunk: WorkItem[];
      try {
        chunk = this.deps.items.nextQueued(this.s.batchId, cursor, CLAIM_CHUNK);
      } catch (err) {
        if (!isStorageError(err) && !isBusyError(err)) throw err;
        this.stopForStorage(err);
        break;
      }
      if (chunk.length === 0) break;
      for (const item of chunk) {
        // Backpressure: no more items being fetched than download slots (those waiting for
        // their host counted apart, up to their own bound), bounded fetched images awaiting
        // analysis. (Twice the slots let decoded duplicates pile up behind their analysis:
        // 15 % fewer images/s on a list of repeated images, docs/benchmarks.md.)
        try {
          await stage.roomFor(this.s.downloadConcurrency, signal);
        } catch {
          break feed;
        }
        await analyses.onSizeLessThan(this.s.analysisConcurrency * 2);
        if (signal.aborted) break feed;
        cursor = item.id;
        stage.track(this.handle(item, analyses, slot, stage).catch((err: unknown) => this.crashed(item, err)));
      }
    }
    await stage.settled();
    await analyses.onIdle();
    return signal.aborted ? 'stopped' : 'finished';
  }

  private async handle(item: WorkItem, analyses: PQueue, slot: FetchOptions['slot'], stage: DownloadStage): Promise<void> {
    const { items } = this.deps;
    if (this.stopping || !(await this.persist(() => items.markFetching(item.id)))) return;
    this.s.onTransition('claimed', { itemId: item.id });
    const startedMs = Date.now();
    // The image's decoded pixels count against the budget from its decode until its analysis
    // ends; until the analysis takes them over, this call gives them back.
    let held = 0;
    const release = (): void => {
      this.pixels.release(held);
      held = 0;
    };
    const beforeDecode = async (pixels: number): Promise<void> => {
      release(); // an earlier attempt's
      await this.pixels.acquire(pixels, this.controller.signal);
      held = pixels;
    };
    let handedOver = false;
    try {
      const image = await this.withRetries(item, () =>
        this.deps.fetcher.fetch(item.url, this.controller.signal, {
          beforeDecode,
          batchId: this.s.batchId,
          slot,
          onHostWait: (waiting) => stage.hostWait(waiting),
        }),
      );
      if (!image) return;
      const { sha256 } = image;
      if (await this.tryReuse(item, sha256)) return;
      const fetchMs = Date.now() - startedMs;
      if (!(await this.persist(() => items.markAnalyzing(item.id, sha256, fetchMs)))) return;
      handedOver = true;
      this.queueAnalysis(item, image, analyses, release);
    } finally {
      if (!handedOver) release();
    }
    await Promise.resolve(); // the task itself is awaited by analyses.onIdle()
  }

  /** Queues the analysis of a fetched image; `release` gives its pixels back when it ends. */
  private queueAnalysis(item: WorkItem, image: FetchedImage, analyses: PQueue, release: () => void): void {
    const key = `${image.sha256}|${this.s.opKey}`;
    const task = analyses.add(() =>
      this.analyse(item, image)
        .catch((err: unknown) => this.crashed(item, err))
        .finally(release),
    );
    this.deps.inflight.set(key, task);
    void task
      .finally(() => {
        if (this.deps.inflight.get(key) === task) this.deps.inflight.delete(key);
      })
      .catch(() => {});
  }

  /** Reuses a stored result for the same bytes, waiting first for an identical analysis in flight. */
  private async tryReuse(item: WorkItem, sha256: string): Promise<boolean> {
    const { results } = this.deps;
    const pending = this.deps.inflight.get(`${sha256}|${this.s.opKey}`);
    if (pending) await pending.catch(() => {});
    const source = results.findReusable(sha256, this.s.opKey);
    if (source === undefined || source === item.id) return false;
    if (!(await this.persist(() => results.reuse(source, item.id, this.s.batchId, sha256)))) return false;
    this.s.onTransition('done', { itemId: item.id, reused: true });
    return true;
  }

  private async analyse(item: WorkItem, image: FetchedImage): Promise<void> {
    if (this.stopping) return await this.requeue(item);
    const startedMs = Date.now();
    const processed = await this.withRetries(item, () => this.deps.processor.process(image, this.s.operation, this.controller.signal));
    if (!processed) return;
    const result = storedResult({
      itemId: item.id,
      batchId: this.s.batchId,
      opKey: this.s.opKey,
      image,
      processed,
      analyzeMs: Date.now() - startedMs,
    });
    const stored = await this.persist(() => this.deps.results.complete(result));
    if (stored) this.s.onTransition('done', { itemId: item.id });
  }

  /**
   * Runs one step with the batch retry policy. Returns undefined when the item was settled
   * instead (failed, or put back in the queue because the run is stopping).
   */
  private async withRetries<T>(item: WorkItem, step: () => Promise<T>): Promise<T | undefined> {
    for (let retry = 0; ; retry++) {
      try {
        return await step();
      } catch (err) {
        if (this.stopping && isCancellation(err)) return void (await this.requeue(item));
        if (haltsRun(err)) return void (await this.halt(item, err));
        if (isTransient(err) && retry + 1 < this.s.retry.maxAttempts && !this.stopping) {
          this.deps.logger.debug('batch item retry', { itemId: item.id, retry: retry + 1, code: (err as AppError).code });
          try {
            await sleep(retryDelayMs(retry, this.s.retry), this.controller.signal);
          } catch {
            return void (await this.requeue(item));
          }
          await this.persist(() => this.deps.items.countAttempt(item.id));
          continue;
        }
        if (this.stopping && !(err instanceof AppError)) return void (await this.requeue(item));
        return void (await this.fail(item, err));
      }
    }
  }

  private async halt(item: WorkItem, err: AppError): Promise<void> {
    if (this.haltingFailure === undefined) {
      this.haltingFailure = err;
      this.deps.logger.error('batch stopped: the analysis service refuses every item', { code: err.code, error: err.message });
    }
    this.controller.abort();
    await this.requeue(item);
  }

  private async requeue(item: WorkItem): Promise<void> {
    await this.persist(() => this.deps.items.requeue(item.id));
    this.s.onTransition('requeued', { itemId: item.id });
  }

  private async fail(item: WorkItem, err: unknown): Promise<void> {
    const known = err instanceof AppError;
    if (!known) this.deps.logger.error('batch item failed unexpectedly', { itemId: item.id, error: String((err as Error)?.stack ?? err) });
    const code = known ? err.code : 'internal';
    const message = known ? err.message : 'An unexpected internal error occurred.';
    await this.persist(() => this.deps.items.markFailed(item.id, code, message));
    this.s.onTransition('failed', { itemId: item.id });
  }

  /**
   * Runs one write of the pipeline. A lock held by another process past the busy timeout is
   * waited out `BUSY_RETRIES` more times; a write the database refuses (full, I/O error,
   * read-only) or a lock that never frees stops the whole run (`storageError`) and is rethrown,
   * so the caller's item is settled by `crashed` without being marked failed.
   */
  private async persist<T>(write: () => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return write();
      } catch (err) {
        if (isBusyError(err) && attempt <= BUSY_RETRIES) {
          this.deps.logger.debug('batch write waits for a lock', { attempt });
          await sleep(BUSY_RETRY_DELAY_MS * attempt);
          continue;
        }
        if (isBusyError(err) || isStorageError(err)) this.stopForStorage(err);
        throw err;
      }
    }
  }

  private stopForStorage(err: unknown): void {
    if (this.storageFailure === undefined) {
      this.storageFailure = err;
      this.deps.logger.error('batch stopped: the database cannot be written', { error: String(err) });
    }
    this.controller.abort();
  }

  // A rejection the item's own handling could not settle: the database refused a write (the
  // item goes back to the queue; the run is stopping) or a bug in the pipeline (recorded on the
  // item rather than lost).
  private async crashed(item: WorkItem, err: unknown): Promise<void> {
    try {
      if (this.storageFailure !== undefined || isStorageError(err) || isBusyError(err)) {
        if (this.storageFailure === undefined) this.stopForStorage(err);
        this.deps.items.requeue(item.id); // best effort: the next start resets items left mid-way anyway
        this.s.onTransition('requeued', { itemId: item.id });
        return;
      }
      await this.fail(item, err);
    } catch (inner) {
      this.deps.logger.error('batch item could not be settled', { itemId: item.id, error: String(inner) });
    }
  }
}
