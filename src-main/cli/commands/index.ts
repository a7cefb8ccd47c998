import type { Command } from 'commander';
import { registerBatch } from './batch';
import { registerBatches } from './batches';
import { registerResume } from './resume';
import { registerCancel } from './cancel';
import { registerDelete } from './delete';
import { registerExport } from './export';
import { registerKeys } from './keys';
import { registerServe } from './serve';
import { registerDetect } from './detect';
import { registerAnalyze } from './analyze';
import { registerGallery } from './gallery';
import { registerWorker } from './worker';
import { registerThumbnail } from './thumbnail';

/** Every CLI command registers itself on the program; add one line per command file. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  registerServe,
  registerKeys,
  registerBatch,
  registerBatches,
  registerResume,
  registerCancel,
  registerDelete,
  registerExport,
  registerDetect,
  registerAnalyze,
  registerGallery,
  registerWorker,
  registerThumbnail,
];
