import { AsyncLocalStorage } from 'node:async_hooks';
import PQueue from 'p-queue';
import { urlHost, type DecodeGate, type ImageLoader, type LoadedPixels } from '../../intake';
import type { AnalyzeService } from '../analyze.service';
import type { DetectService } from '../detect.service';
import type { ThumbnailService } from '../thumbnail.service';
import { addCancellable } from './cancellable-queue';
import type { ImageOperations } from './operations';

/**
 * The two bounds of the API's image calls. A call first takes a **download** slot and fetches its
 * image (network waiting: a slow or hanging image host holds only this); just before the pixels
 * are decoded it takes a **model** slot, gives the download slot back, and keeps the model slot
 * until it has unwound (decode, models, encode). So at most `concurrency` calls decode and run the
 * models at once, at most `downloads` calls hold fetched bytes, and calls whose image is still
 * arriving never keep others from the models. A cancelled call leaves either line while it waits;
 * a started one keeps its slot until its work has stopped (ONNX Runtime runs cannot be interrupted).
 */
export interface ApiCallSlots {
  /** `loader` whose `load` takes the calling operation's model slot before it decodes. Give it to the services. */
  gate(loader: ImageLoader): ImageLoader;
  /**
   * Runs one call's operation under the two bounds (`op` loads its image through a gated loader).
   * `host` (the image URL's host and port) also bounds the downloads from one image host.
   */
  run<T>(signal: AbortSignal | undefined, op: () => Promise<T>, host?: string): Promise<T>;
  /** Calls holding a model slot, and calls whose image has arrived and waits for one. */
  models(): { running: number; waiting: number };
  /** Drops the calls still waiting and waits for those holding a slot. */
  close(): Promise<void>;
}

/** Per model slot, how many image downloads may be in flight (or fetched and waiting) at once. */
export const DOWNLOADS_PER_MODEL_SLOT = 4;
/** The least number of downloads in flight at once, however few model slots there are. */
export const MIN_DOWNLOADS = 8;

/**
 * The share of the download slots that calls for images on one host may hold at once: a hanging
 * host (every request waits the 30 s total timeout) then leaves the other half to other hosts'
 * calls, while one fast host still gets several downloads in flight.
 */
export const HOST_SHARE_OF_DOWNLOADS = 0.5;

/** One call's place in the two lines. */
interface CallState {
  enterModels(): Promise<void>;
}

/** Waits for a slot of `queue` and holds it until the returned function is called. */
function takeSlot(queue: PQueue, signal: AbortSignal | undefined): Promise<() => void> {
  return new Promise((resolve, reject) => {
    addCancellable(queue, () => new Promise<void>((release) => resolve(release)), signal).catch(reject);
  });
}

/** The bounds for `concurrency` model calls at once (and `downloads` fetches; default 4 per model slot, at least 8). */
export function apiCallSlots(concurrency: number, downloads?: number): ApiCallSlots {
  const models = new PQueue({ concurrency: Math.max(1, concurrency) });
  const downloadSlots = Math.max(1, downloads ?? Math.max(MIN_DOWNLOADS, DOWNLOADS_PER_MODEL_SLOT * concurrency));
  const fetches = new PQueue({ concurrency: downloadSlots });
  // Per image host, a line in front of the download slots; dropped once idle (hosts are unbounded).
  const hostSlots = Math.max(1, Math.floor(downloadSlots * HOST_SHARE_OF_DOWNLOADS));
  const hosts = new Map<string, PQueue>();
  const hostLine = (host: string): PQueue => {
    let line = hosts.get(host);
    if (!line) {
      const created = new PQueue({ concurrency: hostSlots });
      created.on('idle', () => {
        if (hosts.get(host) === created) hosts.delete(host);
      });
      hosts.set(host, created);
      line = created;
    }
    return line;
  };
  const current = new AsyncLocalStorage<CallState>();
  return {
    gate(loader) {
      function load(input: string, signal?: AbortSignal, opts?: { thumbnail?: false; beforeDecode?: DecodeGate }): Promise<LoadedPixels> {
        const call = current.getStore();
        const beforeDecode: DecodeGate | undefined = call
          ? async (pixels) => {
              await call.enterModels();
              await opts?.beforeDecode?.(pixels);
            }
          : opts?.beforeDecode;
        return opts?.thumbnail === false
          ? loader.load(input, signal, { thumbnail: false, beforeDecode })
          : loader.load(input, signal, { beforeDecode });
      }
      return { load: load as ImageLoader['load'], close: () => loader.close() };
    },
    async run(signal, op, host) {
      const releaseHost = host === undefined ? undefined : await takeSlot(hostLine(host), signal);
      let releaseDownload: () => void;
      try {
        releaseDownload = await takeSlot(fetches, signal);
      } catch (err) {
        releaseHost?.();
        throw err;
      }
      let downloadHeld = true;
      const leaveDownloads = (): void => {
        if (downloadHeld) {
          releaseDownload();
          releaseHost?.();
        }
        downloadHeld = false;
      };
      let releaseModels: (() => void) | undefined;
      const call: CallState = {
        async enterModels() {
          if (releaseModels) return;
          try {
            releaseModels = await takeSlot(models, signal);
          } finally {
            leaveDownloads();
          }
        },
      };
      try {
        return await current.run(call, op);
      } finally {
        releaseModels?.();
        leaveDownloads();
      }
    },
    models: () => ({ running: models.pending, waiting: models.size }),
    async close() {
      for (const line of hosts.values()) line.clear();
      fetches.clear();
      models.clear();
      await Promise.all([...[...hosts.values()].map((line) => line.onIdle()), fetches.onIdle(), models.onIdle()]);
    },
  };
}

/** The services behind the API's image operations and the bounds they run under. */
export interface QueuedOperationsDeps {
  /** Built with the API's intake (never local files; private networks per the server's policy), through `slots.gate`. */
  analyzer: AnalyzeService;
  detector: DetectService;
  thumbnails: ThumbnailService;
  /** The download and model bounds; the services' loader must be `slots.gate(loader)`. */
  slots: ApiCallSlots;
}

/**
 * The local models behind the API: at most the slots' `concurrency` calls decode and run the
 * models at once, so a burst queues instead of exhausting memory, while calls whose image is
 * still downloading wait apart (`apiCallSlots`). `close()` drops the calls still waiting and
 * waits for those running; the services themselves belong to their builder.
 */
export function queuedOperations(deps: QueuedOperationsDeps): ImageOperations & { close(): Promise<void> } {
  const { analyzer, detector, thumbnails, slots } = deps;
  return {
    analyze: (req, signal) =>
      slots.run(
        signal,
        async () => (await analyzer.analyze(req.image, { features: req.features, details: req.details }, signal)).data,
        urlHost(req.image),
      ),
    detect: (req, signal) =>
      slots.run(
        signal,
        async () => (await detector.detect({ image: req.image, minHeadScale: req.minHeadScale, selector: req.selector }, signal)).response,
        urlHost(req.image),
      ),
    thumbnail: (req, signal) =>
      slots.run(
        signal,
        async () => {
          const t = await thumbnails.thumbnail(
            req.image,
            { width: req.width, height: req.height, smartCropping: req.smartCropping },
            signal,
          );
          return { data: t.data, mimeType: t.mimeType, width: t.width, height: t.height };
        },
        urlHost(req.image),
      ),
    close: () => slots.close(),
  };
}
