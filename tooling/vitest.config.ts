// The tooling package's tests (npm run test:models from the repository root): converter unit
// tests, ONNX-vs-original parity, build determinism and generated-label checks. They import the
// weight-source packages from tooling/node_modules, so the root `npm test` does not include them.
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'tooling',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    // Conversion and model inference are CPU-bound; 2 workers match the target machines.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
