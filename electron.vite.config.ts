import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    // better-sqlite3, onnxruntime-node and sharp are native: they stay external (dependencies).
    plugins: [externalizeDepsPlugin()],
    build: {
      // The backend runs in an Electron utility process (fetching, inference, SQLite off the UI side).
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/index.ts'), 'backend-process': resolve(__dirname, 'src-main/backend-process.ts') },
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
    plugins: [svelte()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
