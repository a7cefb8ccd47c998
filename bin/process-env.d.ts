// Types of bin/process-env.js (the launcher is plain JavaScript; the benches and tests import it).
export declare const MALLOC_ARENAS: string;
export declare function launchEnv(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): NodeJS.ProcessEnv;
