// Types of bin/source-bundle.js (plain JavaScript: the launcher runs it before any TypeScript).
export declare const APP_ENTRIES: Readonly<Record<'cli' | 'analyze-worker' | 'batches-worker', string>>;
export declare const STALE_BUNDLE_MS: number;
export declare function bundleApp(root: string): string;
export declare function bundleSources(req: { entries: Readonly<Record<string, string>>; cacheDir: string; prefix: string }): string;
export declare function currentBundle(req: {
  entries: Readonly<Record<string, string>>;
  cacheDir: string;
  prefix: string;
}): string | undefined;
