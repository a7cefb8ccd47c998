/**
 * `dlib-face-descriptor`: dlib's face-recognition ResNet written out by graph.ts, with its
 * manifest entry. Built by `npm run models:build` (build.ts calls `buildDlibDescriptor`; `--only
 * dlib-face-descriptor` works) — it is not a TF.js graph conversion, so it is not in specs.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestEntry, type ManifestEntry } from '../build';
import type { BuildSpec } from '../specs';
import { packageVersion } from '../tfjs-source';
import { dlibResnetGraph, FACE_API, loadWeights, SIDE, WEIGHTS_MANIFEST } from './graph';

export const DLIB_DESCRIPTOR_ID = 'dlib-face-descriptor';

/** Manifest text of the model (spec fields as data, like specs.ts). */
export const dlibDescriptorSpec: Pick<BuildSpec, 'id' | 'task' | 'license' | 'input' | 'outputs'> & { source: { package: string } } = {
  id: DLIB_DESCRIPTOR_ID,
  task: 'face-recognize',
  license:
    'Public domain (dlib_face_recognition_resnet_model_v1 by Davis King, davisking/dlib-models: "released into the public domain"), packaged MIT by @vladmandic/face-api',
  source: { package: FACE_API },
  input: {
    name: 'input',
    shape: [1, SIDE, SIDE, 3],
    layout: 'NHWC',
    range: [0, 255],
    normalization: 'RGB 0..255 of the upright face crop (the graph subtracts the mean RGB and divides by 255)',
    preprocess: {
      size: [SIDE, SIDE],
      resize: 'window',
      interpolation: 'bilinear',
      channels: 'RGB',
      layout: 'NHWC',
      dtype: 'float32',
      scale: 1,
      offset: 0,
    },
  },
  outputs: [
    {
      tensor: '',
      name: 'descriptor',
      doc: '128-d face descriptor (dlib ResNet); L2-normalize, compare by cosine',
      meaning: '128-d face descriptor; L2-normalize, compare by cosine',
    },
  ],
};

/** Writes `<outDir>/dlib-face-descriptor.onnx` (byte-identical on rerun) and returns its manifest entry. */
export function buildDlibDescriptor(outDir: string): ManifestEntry {
  const spec = dlibDescriptorSpec;
  const version = packageVersion(FACE_API);
  const bytes = dlibResnetGraph(loadWeights()).serialize({
    docString: `${spec.id}: written from ${FACE_API}@${version} ${WEIGHTS_MANIFEST} by tooling/convert/dlib`,
    props: { id: spec.id, source: `${FACE_API}@${version}/${WEIGHTS_MANIFEST}`, license: spec.license },
  });
  const file = `${spec.id}.onnx`;
  writeFileSync(join(outDir, file), bytes);
  return manifestEntry(spec, { file, bytes, version, sourcePath: WEIGHTS_MANIFEST, outputShapes: [[1, 128]] });
}
