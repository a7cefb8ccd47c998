/**
 * The composition root: every host (the Electron backend process, `picscan serve` with web mode,
 * the CLI commands, the distributed worker) is an adapter over one `createBackend`. It opens and
 * migrates the database once, builds one inference engine (one thread-cap policy) and each
 * service once, on first use, so `picscan keys` opens no model and `picscan analyze` no batch
 * machinery; `close()` disposes whatever was built, dependants first, once.
 */
import type { AppConfig } from '../config';
import { BugError, silentLogger, type Logger } from '../core';
import { haltModelRuns, type InferenceEngine, type ModelRunner } from '../inference';
import { createImageLoader, intakeOptions, type ImageLoader, type LoadedPixels, type LoadOptions } from '../intake';
import type { ImageFetcher, ImageProcessor } from '../jobs';
import { branchWorkerFor } from '../services/analyze-worker';
import { analyzeModelsFromEngine, createAnalyzeService, type AnalyzeService } from '../services/analyze.service';
import { apiCallSlots, createApiServices, queuedOperations, type ApiServices, type ImageOperations } from '../services/api';
import { unavailableProcessor } from '../services/batches-processor';
import { workerBatchProcessor } from '../services/batches-worker-pool';
import { BatchService, type BatchServiceDeps } from '../services/batches.service';
import { createDetectService, type DetectService } from '../services/detect.service';
import { openGalleryMatcher } from '../services/gallery-matcher';
import { GalleryService } from '../services/gallery.service';
import { openLocalEngine, openSpareCoreEngine } from '../services/local-engine';
import { otherCoreRunner, spareCoreRunner } from '../services/spare-core-runner';
import { createThumbnailService, type ThumbnailService } from '../services/thumbnail.service';
import { faceRegions, objectRegions, saliencyRegions, type RegionSource } from '../services/thumbnail/regions';
import {
  createServerControl,
  createSettingsStore,
  fileKeyVault,
  settingsBatchDeps,
  type KeyVault,
  type SettingsStore,
  type UiBackend,
} from '../http/bridge';
import type { AppInfo, ServerState } from '../shared';
import { openMigrated, type Db } from '../store';
import { dbFileGuard, guardedApi, type DbFileGuard } from './db-file-guard';
import { disposeAll, part } from './parts';
import { noteRunning, resumeNoted } from './resume';
import { composeUi } from './ui';

/** How the batch service runs its items. */
export interface BatchOptions {
  /** The local processor (tests, benchmarks); default the models in worker threads (`batchModels()`). */
  processor?: ImageProcessor;
  fetcher?: ImageFetcher;
  /** Switch point for remote batches (the CLI's `--key`, the UI's Settings key). */
  remoteProcessor?: BatchServiceDeps['remoteProcessor'];
  /** Distributed batches: this install's model set and the Redis URL to run them on. */
  distributed?: BatchServiceDeps['distributed'];
  /** How often progress events go out while a batch runs, in ms. */
  progressIntervalMs?: number;
  /**
   * Batches running at `close()` are noted in the data folder and `resumeInterrupted()` starts
   * them again, with those a crash left running (the UI hosts; the CLI resumes by command).
   */
  resumeOnStart?: boolean;
}

/** What a host chooses when it creates the backend. */
export interface BackendOptions {
  logger?: Logger;
  /** Refuse image URLs on private networks in the API's operations (default true, the API default). */
  apiBlockPrivateNetworks?: boolean;
  /** Calls of the API's operations running at once (default `config.analysisConcurrency`). */
  apiConcurrency?: number;
  /**
   * Run analyze's objects, NSFW and pixel statistics in a worker thread while the faces run on
   * this one (default: when `config.modelThreads` ≥ 2; docs/analysis.md "Two threads").
   */
  branchWorker?: boolean;
  /**
   * With the worker: analyze's subject segmenter after the branch, on both cores once the faces
   * are done (default true; false: inside the branch, on the worker's one thread, as batches run it).
   */
  subjectAfterBranch?: boolean;
  /** `detect()`: the 5010 bound, and who hears why an image could not be loaded (the CLI's stderr). */
  detect?: { maxFaces?: number; onLoadError?: (err: unknown) => void };
  batches?: BatchOptions;
  /**
   * The UI hosts (desktop, web mode): Settings kept through `vault` (default a 0600 file in the
   * data folder) give the batches their remote key and Redis URL. On the desktop the backend
   * also runs the local API server Settings ask for; web mode reports its own address (`server`).
   */
  ui?: { mode: AppInfo['mode']; vault?: KeyVault; server?: () => ServerState; plainHttp?: boolean };
}

/**
 * Detect calls a backend serves on this thread's core alone before it starts the analyze worker,
 * whose core the face models then share while it is idle (+≈ 80 MB resident: docs/benchmarks.md).
 */
export const DETECT_CALLS_BEFORE_WORKER = 1;

/** One backend: each getter builds its part on first use and returns the same one after. */
export interface Backend {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The app database, opened and migrated. */
  db(): Db;
  /** The one inference engine of this thread (batch worker threads hold their own). */
  engine(): InferenceEngine;
  /** Analyze with desktop intake (local files and `file:` URLs allowed). */
  analyze(): AnalyzeService;
  /** Detect with desktop intake. */
  detect(): DetectService;
  /** Thumbnails (smart cropping over the engine) with desktop intake. */
  thumbnails(): ThumbnailService;
  /** The galleries (enrolment with desktop intake). */
  galleries(): GalleryService;
  /** The API's image operations: analyze, detect and thumbnails with api intake, queued. */
  operations(): ImageOperations;
  /** The API's keys, credits and gateway over `operations()`. */
  api(): ApiServices;
  /** The batch service; its local processor is `batchModels()` once started. */
  batches(): BatchService;
  /**
   * Starts the batch models in worker threads (once); rejects with `model-missing` when they
   * are not installed. Until it resolves, local items fail with `model-missing`.
   */
  batchModels(): Promise<ImageProcessor>;
  /** The UI's handler table, events and downloads (needs `options.ui`); starts the batch models. */
  ui(): Promise<UiBackend>;
  /** Settings as the UI edits them (the remote key in `options.ui.vault`). */
  settings(): SettingsStore;
  /** Starts the batches a shutdown noted or a crash left running (needs `resumeOnStart`); their ids. */
  resumeInterrupted(): number[];
  /**
   * Before an exit that cannot wait for `close()` (a second Ctrl-C): starts no more model runs
   * in the batch models' threads (if started) or on this thread, and resolves once those running
   * have returned, since ending a thread inside a run aborts the process (inference/run-gate.ts).
   */
  haltModels(): Promise<void>;
  /** Disposes everything built, dependants first; later calls return the same promise. */
  close(): Promise<void>;
}

/**
 * Smart cropping's region sources over one engine: faces, then objects, then saliency. A main
 * subject source (segmentation) goes between faces and objects when it exists.
 */
export function regionSources(engine: InferenceEngine): RegionSource[] {
  return [faceRegions(engine), objectRegions(engine), saliencyRegions()];
}

export function createBackend(config: AppConfig, options: BackendOptions = {}): Backend {
  const logger = options.logger ?? silentLogger;
  const batchOpts = options.batches ?? {};
  let closing: Promise<void> | undefined;
  const closed = (): boolean => closing !== undefined;

  // The guard notes the file the connection opened at that moment: a later look could be at a replacement.
  let fileGuard: DbFileGuard | undefined;
  const db = part(
    'the database',
    closed,
    () => {
      const opened = openMigrated(config.dbPath);
      fileGuard = dbFileGuard(opened, () => batches.built && batches().runningHere().length > 0);
      return opened;
    },
    (d) => d.close(),
  );
  const dbGuard = (): DbFileGuard => (db(), fileGuard!);
  const engine = part(
    'the models',
    closed,
    () => openLocalEngine(config),
    (e) => e.dispose(),
  );
  const desktopLoader = part(
    'desktop intake',
    closed,
    () => createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks })),
    (l) => l.close(),
  );
  const apiLoader = part(
    'API intake',
    closed,
    () => createImageLoader(intakeOptions('api', { blockPrivateNetworks: options.apiBlockPrivateNetworks ?? true })),
    (l) => l.close(),
  );
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md),
  // through the backend's one connection, opened only once the file exists.
  const matcher = part(
    'the gallery matcher',
    closed,
    () => openGalleryMatcher(config.dbPath, engine(), () => db()),
    (m) => m.close(),
  );
  const branch = part(
    'the analyze worker',
    closed,
    () => branchWorkerFor(config, analyzeModelsFromEngine(engine()).runModel, { enabled: options.branchWorker, logger }),
    (b) => b?.close(),
  );
  // Face models on both cores once the analyze worker's core is idle (a group photo's faces).
  const spareCore = part(
    'the spare-core face models',
    closed,
    () => openSpareCoreEngine(config),
    (e) => e.dispose(),
  );
  // The face models take the analyze worker's core whenever it is idle (spare-core-runner.ts):
  // analyze's once its branch has returned, the detect service's unless an analyze branch runs.
  const faceModels = (): ModelRunner => {
    const worker = branch();
    return worker ? spareCoreRunner(engine(), spareCore(), worker) : engine();
  };
  // The subject segmenter after the branch: on the worker's core while the faces run here, on
  // both cores once they are done (pipeline.ts SubjectModels).
  const analyzeWith = (loader: ImageLoader): AnalyzeService => {
    const models = analyzeModelsFromEngine(engine());
    const worker = branch();
    const subjectModels =
      worker && options.subjectAfterBranch !== false ? { here: engine(), there: otherCoreRunner(engine(), worker) } : undefined;
    return createAnalyzeService({
      ...models,
      faceRunner: faceModels(),
      loader,
      gallery: matcher().matcher,
      modelBranch: worker?.run,
      subjectModels,
    });
  };
  const detectWith = (loader: DetectLoader, maxFaces?: number): DetectService => {
    const service = createDetectService({ runner: faceModels(), loader, maxFaces });
    let calls = 0;
    return {
      ...service,
      detect(params, signal) {
        // The worker starts with a process's second call, ready for the third: a one-shot call
        // (`picscan detect`) does not pay a thread it would exit before using.
        if (++calls === DETECT_CALLS_BEFORE_WORKER + 1) branch()?.start();
        return service.detect(params, signal);
      },
    };
  };
  const watched = (loader: ImageLoader): DetectLoader => ({
    async load(input, signal, o) {
      try {
        return await loader.load(input, signal, o);
      } catch (err) {
        options.detect?.onLoadError?.(err);
        throw err;
      }
    },
  });

  const analyze = part('analyze', closed, () => analyzeWith(desktopLoader()));
  const detect = part('detect', closed, () => detectWith(watched(desktopLoader()), options.detect?.maxFaces));
  const thumbnails = part('thumbnails', closed, () =>
    createThumbnailService({ loader: desktopLoader(), regionSources: regionSources(engine()) }),
  );
  const galleries = part(
    'the galleries',
    closed,
    () => new GalleryService({ db: db(), engine: engine(), loader: desktopLoader() }),
    (g) => g.dispose(),
  );
  const operations = part(
    'the API operations',
    closed,
    () => {
      // Downloads wait apart from the model work: a slow image host holds no model slot.
      const slots = apiCallSlots(options.apiConcurrency ?? config.analysisConcurrency);
      const loader = slots.gate(apiLoader());
      return queuedOperations({
        analyzer: analyzeWith(loader),
        detector: detectWith(loader),
        thumbnails: createThumbnailService({ loader, regionSources: regionSources(engine()) }),
        slots,
      });
    },
    (o) => o.close(),
  );
  // The keys and credits need only the database: the models load on the first image call.
  const api = part('the API', closed, () =>
    guardedApi(
      createApiServices({
        db: db(),
        operations: {
          analyze: (req, signal) => operations().analyze(req, signal),
          detect: (req, signal) => operations().detect(req, signal),
          thumbnail: (req, signal) => operations().thumbnail!(req, signal),
        },
      }),
      dbGuard(),
    ),
  );

  const batchModels = part(
    'the batch models',
    closed,
    () => (batchOpts.processor ? Promise.resolve(batchOpts.processor) : workerBatchProcessor(config, logger)),
    async (p) => (await p.catch(() => undefined))?.close?.(),
  );
  const settings = part('settings', closed, () => createSettingsStore(config, options.ui?.vault ?? fileKeyVault(config.dataDir)));
  // A processor the host brought is there from the start; the models start with `batchModels()`.
  let started: ImageProcessor | undefined = batchOpts.processor;
  const batches = part(
    'batches',
    closed,
    () =>
      new BatchService({
        db: db(),
        config,
        // Stands in for the models until `batchModels()` has started them; they close with their part.
        processor: { process: (image, op, signal) => (started ?? unavailableProcessor).process(image, op, signal) },
        fetcher: batchOpts.fetcher,
        remoteProcessor: batchOpts.remoteProcessor,
        distributed: batchOpts.distributed,
        // The UI's batches take their remote key and Redis URL from Settings.
        ...(options.ui && settingsBatchDeps(config, settings())),
        progressIntervalMs: batchOpts.progressIntervalMs,
        logger,
      }),
    async (service) => {
      if (batchOpts.resumeOnStart) noteRunning(config, service);
      await service.close();
    },
  );

  const startBatchModels = async (): Promise<ImageProcessor> => {
    batches();
    const p = await batchModels();
    started = p;
    return p;
  };
  const server = part(
    'the local API server',
    closed,
    () =>
      options.ui?.server
        ? { status: options.ui.server, close: async () => {} }
        : createServerControl({ config, api, logger, plainHttp: options.ui?.plainHttp }),
    (s) => s.close(),
  );
  const ui = part(
    'the UI',
    closed,
    () => {
      if (!options.ui) throw new BugError('createBackend: ui() needs options.ui');
      return composeUi({
        config,
        logger,
        mode: options.ui.mode,
        settings: settings(),
        batches,
        batchModels: startBatchModels,
        galleries,
        thumbnails,
        server: server(),
        dbGuard: dbGuard(),
      });
    },
    async (u) => (await u.catch(() => undefined))?.close(),
  );

  return {
    config,
    logger,
    db,
    engine,
    analyze,
    detect,
    thumbnails,
    galleries,
    operations,
    api,
    batches,
    batchModels: startBatchModels,
    ui,
    settings,
    resumeInterrupted: () => (batchOpts.resumeOnStart ? resumeNoted(config, batches()) : []),
    async haltModels() {
      // `started`, not `batchModels()`: this may come while the backend closes.
      await Promise.all([started?.halt?.().catch(() => undefined), haltModelRuns()]);
    },
    close() {
      // Dependants first: batches pause before their models stop; everything on the engine
      // and the database goes before them.
      closing ??= disposeAll([
        ui,
        server,
        batches,
        batchModels,
        api,
        operations,
        galleries,
        analyze,
        detect,
        thumbnails,
        branch,
        matcher,
        apiLoader,
        desktopLoader,
        spareCore,
        engine,
        db,
      ]);
      return closing;
    },
  };
}

type DetectLoader = { load(input: string, signal: AbortSignal | undefined, o: LoadOptions): Promise<LoadedPixels> };
