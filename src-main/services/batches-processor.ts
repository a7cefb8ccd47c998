import type { AppConfig } from '../config';
import { AppError } from '../core';
import type { ImageProcessor } from '../jobs';

/**
 * The local backend for batches: analyze/detect on this machine's models. Throws
 * `model-missing` when the engines are not available, before any batch is created.
 */
export async function localBatchProcessor(_config: AppConfig): Promise<ImageProcessor> {
  throw new AppError('model-missing', 'The local analyze and detect models are not available in this build yet.');
}
