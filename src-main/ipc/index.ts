/** IPC adapters: the typed handler table and its registration with Electron. */
export { createHandlers, type HandlerTable, type HandlerDeps } from './handlers';
