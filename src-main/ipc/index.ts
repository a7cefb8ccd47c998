/**
 * IPC adapters of the desktop app: the main process forwards allow-listed invoke channels to the
 * backend utility process (`backend-client`), which runs the handler table (`backend-host`); the
 * desktop actions (`desktop-actions`: save dialog, keychain) are the main process's part.
 * `register.ts` and `key-vault.ts` import electron and are imported by the composition root only.
 */
export { connectBackend, type BackendClient } from './backend-client';
export { serveBackend, type BackendSide } from './backend-host';
export { desktopInvoker, type DesktopActionsDeps, type DesktopKeyStore } from './desktop-actions';
export type { FromBackend, ToBackend, PortLike, Invoker } from './protocol';
