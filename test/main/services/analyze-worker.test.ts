import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runModelBranch, type BranchRequest, type ModelBranch } from '../../../src-main/analysis';
import { createBackend } from '../../../src-main/app';
import { loadConfig } from '../../../src-main/config';
import { decodeImage, type Box } from '../../../src-main/inference';
import { analyzeBranchWorker } from '../../../src-main/services/analyze-worker';
import { localBatchProcessor } from '../../../src-main/services/batches-processor';
import { createLogger } from '../../../src-main/core';
import type { BatchOperation } from '../../../src-main/shared/batch';
import { createImageLoader, intakeOptions } from '../../../src-main/intake';
import { analyzeModelsFromEngine } from '../../../src-main/services/analyze.service';
import { openLocalEngine } from '../../../src-main/services/local-engine';
import { enlargedJpeg } from '../../helpers/large-photos';
import { fixture } from '../../helpers/paths';
import { DETAILS, VISUAL_FEATURES } from '../../../src-main/shared/spec';

// The analyze worker (objects, NSFW and pixel statistics off the faces' thread) on the real models.
const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-aw-')) }, {});
const engine = openLocalEngine(config);
const { runModel } = analyzeModelsFromEngine(engine);
const inProcess: ModelBranch = (img, want, signal) => runModelBranch(img, want, runModel, signal);
const ALL: BranchRequest = { objects: true, nsfw: true, pixels: true };
afterAll(() => engine.dispose());

const load = (file: string) => decodeImage(readFileSync(fixture(file)), { maxPixels: 50_000_000 });
const withoutTimes = <T extends { timingsMs: unknown }>(r: T): Omit<T, 'timingsMs'> => {
  const { timingsMs: _, ...rest } = r;
  return rest;
};

describe('analyze branch worker', () => {
  it('runs the branch in the worker with the in-process results, and in-process after close', async () => {
    const fallback = vi.fn(inProcess);
    const worker = analyzeBranchWorker(config, { fallback });
    try {
      for (const file of ['grace_hopper.jpg', 'coffee_cup.jpg']) {
        const img = await load(file);
        const expected = await inProcess(img, ALL);
        expect(withoutTimes(await worker.run(img, ALL)), file).toEqual(withoutTimes(expected));
        const some = { objects: false, nsfw: true, pixels: false };
        expect(withoutTimes(await worker.run(img, some))).toEqual(withoutTimes(await inProcess(img, some)));
        expect(img.data.length, 'the caller keeps its pixels').toBe(img.width * img.height * 3);
      }
      expect(fallback).not.toHaveBeenCalled();
    } finally {
      await worker.close();
    }
    const img = await load('grace_hopper.jpg');
    await worker.run(img, ALL);
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it("sends a large photo's working copy and answers in the photo's px, as the branch on the photo does", async () => {
    // The cat enlarged to 12 MP: the worker gets the 1 280 px working copy (inference/image.ts).
    const bytes = await enlargedJpeg('cat_chelsea.jpg', 4032, 2682);
    const img = await decodeImage(new Uint8Array(bytes), { maxPixels: 50_000_000 });
    const want: BranchRequest = { objects: true, classes: true, nsfw: true, subject: true, pixels: false };
    const worker = analyzeBranchWorker(config, { fallback: inProcess });
    try {
      const [viaWorker, onPhoto] = [await worker.run(img, want), await inProcess(img, want)];
      expect(viaWorker.classes?.[0]?.index).toBe(onPhoto.classes?.[0]?.index);
      expect(viaWorker.objects.map((o) => o.label)).toEqual(onPhoto.objects.map((o) => o.label));
      const near = (a: Box | undefined, b: Box | undefined): void => {
        expect(a && b).toBeTruthy();
        for (const k of ['left', 'top', 'width', 'height'] as const) expect(Math.abs(a![k] - b![k])).toBeLessThan(0.02 * img.width);
      };
      viaWorker.objects.forEach((o, i) => near(o.box, onPhoto.objects[i]!.box));
      expect(viaWorker.subject?.main?.label).toBe('cat');
      expect(onPhoto.subject?.main?.label).toBe('cat');
      near(viaWorker.subject?.roi, onPhoto.subject?.roi);
      expect(Math.abs(viaWorker.nsfw!.Neutral - onPhoto.nsfw!.Neutral)).toBeLessThan(0.05);
    } finally {
      await worker.close();
    }
  });

  it('falls back to this thread when the worker entry is missing or fails to start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-aw-boot-'));
    const broken = join(dir, 'boot.mjs');
    writeFileSync(broken, "throw new Error('no loader here');\n");
    const img = await load('grace_hopper.jpg');
    const expected = withoutTimes(await inProcess(img, ALL));
    for (const entry of [pathToFileURL(join(dir, 'missing.mjs')), pathToFileURL(broken)]) {
      const fallback = vi.fn(inProcess);
      const worker = analyzeBranchWorker(config, { fallback, entry });
      try {
        expect(withoutTimes(await worker.run(img, ALL))).toEqual(expected);
        expect(withoutTimes(await worker.run(img, ALL))).toEqual(expected);
        expect(fallback).toHaveBeenCalledTimes(2);
      } finally {
        await worker.close();
      }
    }
  });

  it('the batch processor analyses in the analyze worker when the models have two threads, on its own thread with one', async () => {
    const loader = createImageLoader(intakeOptions('desktop'));
    const image = await loader.load(fixture('grace_hopper.jpg'));
    await loader.close();
    const operation: BatchOperation = { kind: 'analyze', features: [...VISUAL_FEATURES], details: [] };
    const results = [];
    for (const modelThreads of [2, 1]) {
      const lines: string[] = [];
      const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
      const processor = await localBatchProcessor({ ...config, modelThreads }, { logger });
      try {
        const out = await processor.process(image, operation, new AbortController().signal);
        results.push(out.kind === 'analyze' ? { ...out.data, requestId: '' } : out);
      } finally {
        await processor.close?.();
      }
      const started = lines.filter((l) => (JSON.parse(l) as { msg: string }).msg === 'analyze worker started');
      expect(started, `modelThreads ${modelThreads}`).toHaveLength(modelThreads === 2 ? 1 : 0);
    }
    // The same evidence either way (thread counts change no result).
    expect(results[0]).toEqual(results[1]);
  });

  it('gives the analyze service the same answers with and without the worker', async () => {
    const params = { features: [...VISUAL_FEATURES], details: [...DETAILS] };
    const plain = createBackend(config, { branchWorker: false });
    const threaded = createBackend(config, { branchWorker: true });
    try {
      for (const file of ['grace_hopper.jpg', 'family_six_faces.jpg']) {
        const a = await plain.analyze().analyze(fixture(file), params);
        const b = await threaded.analyze().analyze(fixture(file), params);
        expect({ ...b.data, requestId: '' }, file).toEqual({ ...a.data, requestId: '' });
        expect(b.timingsMs).toHaveProperty('branch');
        expect(a.timingsMs).not.toHaveProperty('branch');
      }
    } finally {
      await threaded.close();
      await plain.close();
    }
  });
});
