/** Distributed batches over BullMQ on Redis: the coordinator's runner and the worker host (docs/distributed.md). */
export { DistributedRunner, DEFAULT_TUNING, redisMissing, type CoordinatorTuning } from './coordinator';
export { startWorker, defaultWorkerName, type WorkerHost, type WorkerHostOptions } from './worker-host';
export { parseRedisUrl, redisForRun, type RedisAddress } from './redis-url';
export { checkRedis } from './connection';
export { cleanUpEndedBatch, cleanupAddress } from './batch-cleanup';
export { modelSetOf } from './model-set';
export { WORKER_GONE_MS } from './worker-roster';
