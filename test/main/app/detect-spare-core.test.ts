import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBackend, DETECT_CALLS_BEFORE_WORKER } from '../../../src-main/app/backend';
import { loadConfig } from '../../../src-main/config';
import type { Logger } from '../../../src-main/core';
import { MIN_HEAD_SCALE } from '../../../src-main/shared/spec';
import { composedGroupPhoto } from '../../helpers/group-photo';

// The composition root's detect service: the first call runs on this thread's core alone (a
// one-shot `picscan detect` starts no thread), later calls share the analyze worker's idle core
// (services/spare-core-runner.ts), with the same faces. Real models, a real worker thread.
const dataDir = mkdtempSync(join(tmpdir(), 'picscan-detect-spare-'));
const config = loadConfig({ dataDir }, {});
const debugLines: string[] = [];
const logger: Logger = { debug: (msg) => void debugLines.push(msg), info: () => {}, warn: () => {}, error: () => {} };
const withWorker = createBackend(config, { logger });
const oneCore = createBackend(config, { branchWorker: false });
afterAll(async () => {
  await withWorker.close();
  await oneCore.close();
});

const workerStarted = (): boolean => debugLines.includes('analyze worker started');

describe('detect calls and the analyze worker', () => {
  it('starts the worker with the second call and finds the same faces on one core and on two', async () => {
    const image = join(dataDir, 'group-12.jpg');
    writeFileSync(image, await composedGroupPhoto(12, 6));
    const params = { image, minHeadScale: MIN_HEAD_SCALE.default, selector: ['FRONTAL' as const] };
    const reference = await oneCore.detect().detect(params);
    expect(reference.faces.length).toBe(12);

    const outcomes = [];
    for (let call = 1; call <= DETECT_CALLS_BEFORE_WORKER; call++) outcomes.push(await withWorker.detect().detect(params));
    expect(workerStarted()).toBe(false);
    outcomes.push(await withWorker.detect().detect(params));
    for (let waited = 0; !workerStarted() && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(workerStarted()).toBe(true);
    outcomes.push(await withWorker.detect().detect(params)); // on both cores
    for (const o of outcomes) expect(o.response).toEqual(reference.response);
  });
});
