// The environment `npm start` (bin/start.js) gives the processes it starts: Electron, whose
// backend utility process inherits it, or web mode's `picscan serve`.

/**
 * Arenas glibc's malloc may keep. By default it gives every thread that allocates while another
 * does an arena of its own (up to 8 per core) and keeps freed memory in each. A batch allocates
 * from the main thread, the batch worker, the analyze worker and ONNX Runtime's and libvips'
 * threads; capped at 2 arenas, its peak RSS was about 35 MB lower at the same speed
 * (docs/benchmarks.md "Batches"). glibc reads the variable once, when the process starts, so only
 * a launcher can set it.
 */
export const MALLOC_ARENAS = '2';

/**
 * `env` with the allocator settings above added: on Linux (glibc; other C libraries ignore the
 * variable) and only where the user has not set them.
 * @param {NodeJS.ProcessEnv} [env]
 * @param {NodeJS.Platform} [platform]
 * @returns {NodeJS.ProcessEnv}
 */
export function launchEnv(env = process.env, platform = process.platform) {
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return env;
  return { ...env, MALLOC_ARENA_MAX: MALLOC_ARENAS };
}
