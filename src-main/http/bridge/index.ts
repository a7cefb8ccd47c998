/**
 * The UI bridge: the typed API (handler table over the services) shared by the Electron IPC
 * bridge and web mode, and web mode's HTTP routes (renderer at `/app/`, API at `/api/*`).
 */
export { createApiHandlers, type ApiDeps, type BatchesPort, type ResultsPort, type SettingsPort, type GalleriesPort } from './handlers';
export { bridgeRoutes, type BridgeOptions, type ThumbnailSource, type ExportSource } from './routes';
export { createEventHub, type EventHub, type AnyEventListener } from './events';
export { createSessionToken } from './guard';
export { dispatch } from './dispatch';
export { webModeBridge, defaultRendererDir, type WebModeOptions } from './web-mode';
export { createUiBackend, settingsBatchDeps, type UiBackend, type UiBackendOptions } from './ui-backend';
export { createSettingsStore, fileKeyVault, memoryKeyVault, type KeyVault, type SettingsStore } from './settings-store';
export { createServerControl, type ServerControl } from './server-control';
