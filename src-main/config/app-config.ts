import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AppError } from '../core';
import { ANALYSIS_CONCURRENCY, ANALYSIS_WORKERS, DOWNLOAD_CONCURRENCY, MAX_RETRY_AFTER_S, MODEL_THREADS } from '../shared/contract/limits';
import { defaultAppDataDir } from './app-data-dir';

/** Repository/app root: the folder holding `models/` and `package.json`. */
export const appRoot = fileURLToPath(new URL('../..', import.meta.url));

const settingsSchema = z
  .object({
    /** Model threads per ONNX session (intraOpNumThreads); default = number of cores. */
    modelThreads: z.number().int().min(MODEL_THREADS.min).max(MODEL_THREADS.max),
    /** Concurrent image downloads in a batch. */
    downloadConcurrency: z.number().int().min(DOWNLOAD_CONCURRENCY.min).max(DOWNLOAD_CONCURRENCY.max),
    /** Concurrent analyses in a batch (CPU-bound). */
    analysisConcurrency: z.number().int().min(ANALYSIS_CONCURRENCY.min).max(ANALYSIS_CONCURRENCY.max),
    /**
     * Batch analysis worker threads, each with its own copy of the models. More than one lets
     * analyses run on several cores at once (ONNX Runtime runs a model on its calling thread) at
     * the cost of memory; see docs/benchmarks.md.
     */
    analysisWorkers: z.number().int().min(ANALYSIS_WORKERS.min).max(ANALYSIS_WORKERS.max),
    /** Refuse image URLs on private/loopback addresses (desktop/CLI default: allowed, a user's own LAN). */
    blockPrivateNetworks: z.boolean(),
    /**
     * Longest `Retry-After` a batch waits out for one image, in seconds; a server asking for
     * longer fails the item at once with `image-rate-limited` and the time it gave.
     */
    maxRetryAfterSeconds: z.number().int().min(MAX_RETRY_AFTER_S.min).max(MAX_RETRY_AFTER_S.max),
  })
  .partial()
  .strict();

export type Settings = z.infer<typeof settingsSchema>;

/** The one validated, frozen runtime configuration, passed down through constructors. */
export interface AppConfig {
  readonly version: string;
  /** OS app-data folder (database, certificates, settings). */
  readonly dataDir: string;
  /** SQLite database file. */
  readonly dbPath: string;
  /** Folder with the ONNX models and manifest.json. */
  readonly modelsDir: string;
  readonly modelThreads: number;
  readonly downloadConcurrency: number;
  readonly analysisConcurrency: number;
  readonly analysisWorkers: number;
  readonly blockPrivateNetworks: boolean;
  readonly maxRetryAfterSeconds: number;
}

export interface ConfigOverrides {
  dataDir?: string;
  dbPath?: string;
  modelsDir?: string;
  settings?: Settings;
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** One line per zod issue: `path: message`. */
const issuesText = (error: z.ZodError): string => error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

function readSettingsFile(file: string): Settings {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    // No file means defaults; a file that exists but cannot be read would silently drop the
    // user's settings, so it is named instead.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new AppError('invalid-input', `Settings file ${file} cannot be read (${(err as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new AppError('invalid-input', `Settings file ${file} is not valid JSON: ${(err as Error).message}.`);
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) throw new AppError('invalid-input', `Settings file ${file} is invalid: ${issuesText(parsed.error)}`);
  return parsed.data;
}

/** The environment variables that set a numeric setting. */
const NUMERIC_SETTING_ENV = {
  PICSCAN_MODEL_THREADS: 'modelThreads',
  PICSCAN_DOWNLOAD_CONCURRENCY: 'downloadConcurrency',
  PICSCAN_ANALYSIS_CONCURRENCY: 'analysisConcurrency',
  PICSCAN_ANALYSIS_WORKERS: 'analysisWorkers',
  PICSCAN_MAX_RETRY_AFTER_S: 'maxRetryAfterSeconds',
} as const satisfies Record<string, keyof Settings>;

function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const out: Settings = {};
  for (const [name, key] of Object.entries(NUMERIC_SETTING_ENV)) {
    const value = env[name];
    if (!value) continue;
    const parsed = settingsSchema.shape[key].safeParse(Number(value.trim()));
    if (!parsed.success) {
      const why = Number.isNaN(Number(value.trim())) ? 'not a number' : parsed.error.issues.map((i) => i.message).join('; ');
      throw new AppError('invalid-input', `${name}=${JSON.stringify(value)} is invalid: ${why}`);
    }
    out[key] = parsed.data;
  }
  return out;
}

/**
 * Builds the configuration: defaults < settings file (`<dataDir>/settings.json`) < environment
 * (`PICSCAN_DATA_DIR`, `PICSCAN_DB`, `PICSCAN_MODEL_THREADS`, …) < explicit overrides (CLI flags).
 */
export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(overrides.dataDir ?? env.PICSCAN_DATA_DIR ?? defaultAppDataDir(env));
  const cores = availableParallelism();
  const merged: Required<Settings> = {
    modelThreads: cores,
    downloadConcurrency: 16,
    analysisConcurrency: Math.max(1, cores),
    analysisWorkers: 1,
    blockPrivateNetworks: false,
    maxRetryAfterSeconds: 60,
    ...readSettingsFile(join(dataDir, 'settings.json')),
    ...settingsFromEnv(env),
    ...overrides.settings,
  };
  return Object.freeze({
    version: readVersion(),
    dataDir,
    dbPath: resolve(overrides.dbPath ?? env.PICSCAN_DB ?? join(dataDir, 'picscan.db')),
    modelsDir: resolve(overrides.modelsDir ?? env.PICSCAN_MODELS_DIR ?? join(appRoot, 'models')),
    ...merged,
  });
}
