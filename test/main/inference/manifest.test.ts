import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLAZEFACE_BACK_LAYOUT } from '../../../src-main/analysis/faces/anchors';
import { MESH_INPUT_PX } from '../../../src-main/analysis/faces/mesh-align';
import { loadManifest, parseManifest } from '../../../src-main/inference';
import { AppError } from '../../../src-main/core';
import { repoRoot } from '../../helpers/paths';

const file = join(repoRoot, 'models', 'manifest.json');
const raw = (): { version: number; models: Record<string, unknown>[] } => JSON.parse(readFileSync(file, 'utf8'));

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('model manifest', () => {
  it('the shipped manifest validates, with the documented ids', () => {
    const m = loadManifest(file);
    expect([...m.models.keys()]).toEqual([
      'blazeface-back',
      'facemesh',
      'gear',
      'faceres',
      'emotion',
      'nsfw-mobilenet-v2-mid',
      'centernet',
      'dlib-face-descriptor',
      'mobilenet-v2-imagenet',
      'deeplabv3-pascal',
    ]);
    expect(m.models.get('centernet')!.labels).toBe('labels/coco80.json');
    const classifier = m.models.get('mobilenet-v2-imagenet')!;
    expect(classifier.precision).toBe('uint8');
    expect(classifier.inputs[0]).toMatchObject({ dtype: 'uint8', preprocess: { size: [224, 224], resize: 'stretch', dtype: 'uint8' } });
    expect(classifier.quantization!.outputs['probabilities']).toEqual({ scale: 1 / 256, zeroPoint: 0 });
    expect(m.models.get('deeplabv3-pascal')!.outputs[0]).toMatchObject({ name: 'classes', shape: [1, 321, 321], dtype: 'int64' });
    for (const spec of m.models.values()) {
      // Batch 1, or -1 (any batch) for the per-face models that take all faces of an image in one run.
      const batch = ['facemesh', 'gear', 'faceres', 'emotion'].includes(spec.id) ? -1 : 1;
      for (const t of [...spec.inputs, ...spec.outputs]) expect(t.shape[0], `${spec.id} ${t.name}`).toBe(batch);
      if (spec.labels) expect(() => readFileSync(join(repoRoot, 'models', spec.labels!))).not.toThrow();
    }
  });

  it('keeps models/ within the 40 MB budget', () => {
    const total = [...loadManifest(file).models.values()].reduce((n, s) => n + s.bytes, 0);
    expect(total).toBeLessThanOrEqual(40 * 1024 * 1024);
  });

  it('a bad entry fails fast naming the model id and field', () => {
    const json = raw();
    const at = json.models.findIndex((m) => m['id'] === 'gear');
    json.models[at] = { ...json.models[at], sha256: 'nope' };
    const err = failure(() => parseManifest(json));
    expect(err.code).toBe('model-failed');
    expect(err.message).toContain('"gear"');
    expect(err.details).toMatchObject({ model: 'gear', field: 'sha256' });
  });

  it('a mis-shaped input is reported with its model id', () => {
    const json = raw();
    const entry = json.models[0] as { inputs: { shape: number[] }[] };
    entry.inputs[0]!.shape = [1, -256, 256, 3];
    expect(failure(() => parseManifest(json)).message).toContain('"blazeface-back"');
  });

  it('a dynamic batch (-1) is allowed only as the first dim, and on every input and output or none', () => {
    const json = raw();
    const entry = json.models.find((m) => m['id'] === 'gear') as { inputs: { shape: number[] }[]; outputs: { shape: number[] }[] };
    entry.inputs[0]!.shape = [-1, 198, -1, 3];
    expect(failure(() => parseManifest(json)).details).toMatchObject({ model: 'gear', field: 'inputs.0.shape' });
    entry.inputs[0]!.shape = [-1, 198, 198, 3];
    entry.outputs[1]!.shape = [1, 2];
    expect(failure(() => parseManifest(json)).details).toMatchObject({ model: 'gear', field: 'outputs.1.shape' });
  });

  it('validates the structured preprocess against the input it describes', () => {
    const json = raw();
    const entry = json.models.find((m) => m['id'] === 'mobilenet-v2-imagenet') as { inputs: { preprocess: Record<string, unknown> }[] };
    const pre = entry.inputs[0]!.preprocess;
    pre['size'] = [300, 300];
    const err = failure(() => parseManifest(json));
    expect(err.message).toContain('"mobilenet-v2-imagenet"');
    expect(err.details).toMatchObject({ field: 'inputs.0.preprocess.size' });
    pre['size'] = [224, 224];
    pre['resize'] = 'crop';
    expect(failure(() => parseManifest(json)).details).toMatchObject({ field: 'inputs.0.preprocess.resize' });
    pre['resize'] = 'stretch';
    pre['mean'] = [0.5, 0.5, 0.5];
    expect(failure(() => parseManifest(json)).message).toContain('scale/offset or mean/std');
  });

  it('every model the app runs declares its preprocessing as data', () => {
    const m = loadManifest(file);
    const run = ['blazeface-back', 'facemesh', 'gear', 'faceres', 'emotion', 'nsfw-mobilenet-v2-mid', 'centernet', 'mobilenet-v2-imagenet'];
    for (const id of run) expect(m.models.get(id)!.inputs[0]!.preprocess, id).toBeDefined();
    expect(m.models.get('emotion')!.inputs[0]!.preprocess).toMatchObject({ resize: 'window', channels: 'grey', size: [64, 64] });
    expect(m.models.get('centernet')!.inputs[0]!.preprocess).toMatchObject({ resize: 'letterbox', pad: 0, scale: 1, offset: 0 });
    expect(m.models.get('nsfw-mobilenet-v2-mid')!.inputs[0]!.preprocess).toMatchObject({
      interpolation: 'bilinear-align-corners',
      scale: 1 / 255,
    });
  });

  it('the face decoders work in the input frames the manifest declares', () => {
    // Anchors and mesh coordinates are in input px: they must match the preprocessed size.
    const m = loadManifest(file);
    expect(m.models.get('blazeface-back')!.inputs[0]!.preprocess!.size).toEqual([
      BLAZEFACE_BACK_LAYOUT.inputSize,
      BLAZEFACE_BACK_LAYOUT.inputSize,
    ]);
    expect(m.models.get('facemesh')!.inputs[0]!.preprocess!.size).toEqual([MESH_INPUT_PX, MESH_INPUT_PX]);
  });

  it('rejects preprocessing that does not fit its input or cannot be produced', () => {
    const json = raw();
    const entry = json.models.find((m) => m['id'] === 'emotion') as { inputs: { preprocess: Record<string, unknown> }[] };
    const pre = entry.inputs[0]!.preprocess;
    pre['channels'] = 'RGB'; // the input has one channel
    expect(failure(() => parseManifest(json)).details).toMatchObject({ model: 'emotion', field: 'inputs.0.preprocess.channels' });
    pre['channels'] = 'grey';
    pre['resize'] = 'stretch'; // luma comes from the window warp only
    expect(failure(() => parseManifest(json)).message).toContain('window warp only');
    pre['resize'] = 'window';
    pre['scale'] = [1, 1, 1]; // the warp maps all channels alike
    expect(failure(() => parseManifest(json)).message).toContain('one scale/offset');
    pre['scale'] = 1;
    pre['enlarge'] = 'bicubic'; // the face warp has its own sampling
    expect(failure(() => parseManifest(json)).message).toContain('enlarge applies to a bilinear stretch only');
  });

  it('an integer input needs its quantization', () => {
    const json = raw();
    const entry = json.models.find((m) => m['id'] === 'mobilenet-v2-imagenet')!;
    delete entry['quantization'];
    const err = failure(() => parseManifest(json));
    expect(err.details).toMatchObject({ model: 'mobilenet-v2-imagenet', field: 'inputs.0.dtype' });
  });

  it('rejects duplicate ids and a wrong version', () => {
    const json = raw();
    json.models.push(json.models[0]!);
    expect(failure(() => parseManifest(json)).message).toContain('twice');
    expect(failure(() => parseManifest({ version: 2, models: [] })).code).toBe('model-failed');
  });

  it('a missing manifest file is model-missing', () => {
    expect(failure(() => loadManifest(join(repoRoot, 'models', 'nope.json'))).code).toBe('model-missing');
  });
});
