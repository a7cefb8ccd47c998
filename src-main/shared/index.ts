/** Runtime-neutral types and constants shared by main, preload and renderer. */
export * from './errors';
export * from './ipc';
export * from './spec';
export * from './batch';
export * from './unavailable-hosts';
export * from './api';
export * from './api-errors';
export * from './counted';
