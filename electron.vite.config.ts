import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    // better-sqlite3, onnxruntime-node and sharp are native: they stay external (dependencies).
    plugins: [externalizeDepsPlugin()],
    build: {
      // The backend runs in an Electron utility process (fetching, inference, SQLite off the UI side);
      // its analyses run in worker threads, which start from entries of their own
      // (services/worker-entry.ts finds `<name>.js` beside itself).
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          'backend-process': resolve(__dirname, 'src-main/backend-process.ts'),
          'analyze-worker': resolve(__dirname, 'src-main/services/analyze-worker-entry.ts'),
          'batches-worker': resolve(__dirname, 'src-main/services/batches-worker-entry.ts'),
        },
        // Shared chunks beside the entries, not in chunks/: paths relative to `import.meta.url`
        // (the worker entries, config's app root `../..`) then mean the same in every file.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    // Sandboxed preloads cannot require node_modules: bundle everything into one CommonJS file.
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    base: './',
    // The app icon's favicon (resources/build-icons.ts) is copied beside index.html.
    publicDir: resolve(__dirname, 'resources/favicon'),
    plugins: [svelte()],
    // The list counter's worker (src-renderer/utils/list-count.ts) is a module worker, as the page's
    // own script is: an ES bundle beside the page's assets, same origin, so `script-src 'self'` admits it.
    worker: { format: 'es' },
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
