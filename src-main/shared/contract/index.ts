/**
 * The contract: one zod schema per request and option (image-operation parameters, batch
 * options, settings, gallery input, result queries, every UI channel), each limit a named
 * constant in `limits.ts`. Runtime-neutral (the renderer imports it). Kept out of
 * `shared/index.ts` so the preload bundle stays free of zod.
 */
export * from './limits';
export * from './problems';
export * from './lists';
export * from './image-params';
export * from './batch';
export * from './settings';
export * from './gallery';
export * from './results';
export * from './channels';
export * from './remote-replies';
