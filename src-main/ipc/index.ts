/**
 * IPC adapters of the desktop app: the main process forwards allow-listed invoke channels to the
 * backend utility process (`backend-client`), which runs the handler table (`backend-host`).
 * `register.ts` and `key-vault.ts` import electron and are imported by the composition root only.
 */
export { connectBackend, type BackendClient } from './backend-client';
export { serveBackend, type BackendHostOptions } from './backend-host';
export type { FromBackend, ToBackend, PortLike, Invoker } from './protocol';
