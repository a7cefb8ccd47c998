/** The batches use case for adapters (CLI, IPC, HTTP). */
export { BatchService, type BatchServiceDeps, type BatchServiceEvents } from './batches.service';
export { CSV_COLUMNS, excelSafe } from './export-rows';
export type { ImageFetcher, ImageProcessor, FetchedImage, ProcessedImage, ListFormat } from '../jobs';
export { openBatchService, openBatchServiceWith, unavailableProcessor, type OpenBatchService } from './batches-open';
export { localBatchProcessor } from './batches-processor';
export { workerBatchProcessor } from './batches-worker-pool';
