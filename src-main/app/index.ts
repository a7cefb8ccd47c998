/**
 * The composition root: one backend per process, and the hosts' shared start-up (`startServer`).
 * Hosts (cli/, backend-process.ts) import this; it imports the layers below and nothing imports it.
 */
export { createBackend, regionSources, type Backend, type BackendOptions, type BatchOptions } from './backend';
export { startServer, type RunningServer, type ServeOptions } from './serve';
export { namedStorageFailure } from './storage-failure';
export { startWorkerParts, verifyModels, type WorkerParts } from './worker';
