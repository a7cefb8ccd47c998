// Our NSFW preprocessing vs the exact TF.js ops of nsfwjs 4.2.1 `infer()` on a real fixture:
// img.toFloat().div(255) then tf.image.resizeBilinear(…, [224, 224], alignCorners = true).
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_NET_MODEL_ID, contentNetFeeds } from '../../src-main/analysis/content-net';
import { loadManifest } from '../../src-main/inference';
import { repoRoot } from '../../test/helpers/paths';
import { decodeFixture } from '../../test/main/analysis/fixtures';

// The shipped manifest entry: its preprocessing is what the app feeds the model.
const spec = loadManifest(join(repoRoot, 'models', 'manifest.json')).models.get(CONTENT_NET_MODEL_ID)!;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('nsfw preprocessing parity with nsfwjs', () => {
  for (const file of ['cat_chelsea.jpg', 'dancer_sketch_line_drawing.png']) {
    it(`matches TF.js resizeBilinear(alignCorners) on ${file}`, async () => {
      const img = await decodeFixture(file);
      const ours = (await contentNetFeeds(img, spec)).input!;
      const theirs = tf.tidy(() => {
        const x = tf.div(tf.cast(tf.tensor3d(img.data, [img.height, img.width, 3], 'int32'), 'float32'), tf.scalar(255));
        return tf.reshape(tf.image.resizeBilinear(x as tf.Tensor3D, [224, 224], true), [1, 224, 224, 3]);
      });
      const ref = theirs.dataSync();
      theirs.dispose();
      expect(ours.dims).toEqual([1, 224, 224, 3]);
      let worst = 0;
      for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(ours.data[i]! - ref[i]!));
      expect(worst).toBeLessThan(1e-5);
    });
  }
});
