/** Batch jobs: the injected fetch/process steps, list import and the two-stage pipeline. */
export type { FetchedImage, FetchOptions, ImageFetcher, ImageProcessor, ProcessedImage } from './types';
export { readUrlList, checkListUrl, type ListEntry, type ListFormat } from './url-list';
export { BatchRunner, type InflightAnalyses, type RunnerDeps, type RunSettings, type RunOutcome } from './batch-runner';
export { ProgressTracker, type ItemTransition } from './progress';
export { DEFAULT_RETRY, isTransient, retryDelayMs, type RetryPolicy } from './retry';
export { operationKey } from './op-key';
export { storedResult } from './stored-result';
export { createIntakeFetcher } from './intake-fetcher';
export { MAX_WAITING_FOR_HOSTS } from './download-stage';
export { HELD_RECHECK_MS, HOST_BREAKER, HostBreaker, isHostRefusal, TRACKED_HOSTS, type HostBreakerRule } from './host-breaker';
