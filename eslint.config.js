import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

// Import direction (STYLE.md §3.1): each src-main folder may import only the layers listed.
const layers = {
  shared: [],
  core: ['shared'],
  config: ['core', 'shared'],
  store: ['core', 'shared'],
  inference: ['core', 'shared'],
  intake: ['inference', 'core', 'shared'],
  analysis: ['intake', 'inference', 'core', 'shared'],
  jobs: ['store', 'analysis', 'intake', 'inference', 'core', 'shared', 'config'],
  services: ['jobs', 'store', 'analysis', 'intake', 'inference', 'config', 'core', 'shared'],
  ipc: ['services', 'config', 'core', 'shared'],
  http: ['services', 'config', 'core', 'shared'],
  // The composition root: builds every service once; only the hosts import it.
  app: ['services', 'http', 'jobs', 'store', 'analysis', 'intake', 'inference', 'config', 'core', 'shared'],
  cli: ['app', 'services', 'http', 'config', 'core', 'shared'],
  windows: ['config', 'core'],
  preload: ['shared'],
};
const all = Object.keys(layers);
const layerRules = Object.entries(layers).map(([layer, allowed]) => ({
  files: [`src-main/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: all
              .filter((l) => l !== layer && !allowed.includes(l))
              .map((l) => `**/${l}/**`)
              // `**/x/**` does not match a bare relative import of a layer's index (`../../jobs`), from
              // any depth of src-main (files sit at most three folders down).
              .concat(all.filter((l) => l !== layer && !allowed.includes(l)).flatMap((l) => [`../${l}`, `../../${l}`, `../../../${l}`])),
            message: `src-main/${layer} may import only: ${allowed.join(', ') || '(nothing outside itself)'} (STYLE.md §3.1).`,
          },
          ...(['windows', 'ipc', 'preload'].includes(layer)
            ? []
            : [{ group: ['electron'], message: 'electron is imported only in index.ts, windows/, ipc/ and preload/.' }]),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'models/**/*.onnx', 'coverage/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser }, globals: { ...globals.browser } },
  },
  { files: ['src-renderer/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['src-renderer/**/*.{ts,svelte}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/*', '!**/src-main/shared', '**/src-main/*/**', '!**/src-main/shared/**'],
              message: 'The renderer may import only src-main/shared.',
            },
          ],
        },
      ],
    },
  },
  ...layerRules,
);
