import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { convertSpec } from './build';
import { OIDV4_ANCHORS, decodeSsd, ssdAnchors } from './decode';
import { tfliteSpecs } from './specs';

const spec = tfliteSpecs.find((s) => s.id === 'oidv4-ssd')!;

describe('TFLite -> ONNX (oidv4-ssd)', () => {
  const a = convertSpec(spec);

  it('reads the flatbuffer: ops, input and output shapes', () => {
    expect(a.converted.ops).toEqual({ DEQUANTIZE: 144, CONV_2D: 55, DEPTHWISE_CONV_2D: 17, ADD: 10, RESHAPE: 13, CONCATENATION: 2 });
    expect(a.converted.inputShape).toEqual([1, 300, 300, 3]);
    expect(a.converted.outputShapes).toEqual([
      [1, 1917, 4],
      [1, 1917, 24],
    ]);
  });

  it('is deterministic (same bytes on rebuild)', () => {
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(convertSpec(spec).bytes))).toBe(0);
  });

  it('matches values recorded from the TFLite interpreter (tfjs-tflite WASM) on a constant input', async () => {
    const s = await ort.InferenceSession.create(a.bytes, { intraOpNumThreads: 1 });
    const x = new Float32Array(300 * 300 * 3).fill(0.1);
    const out = await s.run({ input: new ort.Tensor('float32', x, [1, 300, 300, 3]) });
    const boxes = out['box_encodings']!.data as Float32Array;
    const logits = out['class_logits']!.data as Float32Array;
    // tooling/convert/tflite/reference.ts, same input.
    const want: [Float32Array, number, number][] = [
      [boxes, 0, -2.643839120864868],
      [boxes, 1, -2.635317802429199],
      [boxes, boxes.length - 1, -0.26786869764328003],
      [logits, 0, 1.3385815620422363],
      [logits, 1, -4.5668463706970215],
      [logits, logits.length - 1, -2.2848215103149414],
    ];
    for (const [t, i, v] of want) expect(Math.abs(t[i]! - v)).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(v)));
    await s.release();
  });
});

describe('MediaPipe SSD anchors and decoding', () => {
  const anchors = ssdAnchors(OIDV4_ANCHORS);

  it('1917 anchors: 19x19x3, then 6 per cell on 10, 5, 3, 2, 1', () => {
    expect(anchors.length).toBe(19 * 19 * 3 + (100 + 25 + 9 + 4 + 1) * 6);
    expect(anchors[0]).toEqual({ cx: 0.5 / 19, cy: 0.5 / 19, w: 0.1, h: 0.1 });
    // Second anchor of the first cell: scale 0.2, aspect 2 (w = s*sqrt2, h = s/sqrt2).
    expect(anchors[1]!.w).toBeCloseTo(0.2 * Math.SQRT2, 6);
    expect(anchors[1]!.h).toBeCloseTo(0.2 / Math.SQRT2, 6);
    // Last anchor: 1x1 map, interpolated scale sqrt(0.95 * 1), aspect 1.
    expect(anchors.at(-1)!).toMatchObject({ cx: 0.5, cy: 0.5 });
    expect(anchors.at(-1)!.w).toBeCloseTo(Math.sqrt(0.95), 6);
  });

  it('zero regression decodes to the anchor box; background never wins', () => {
    const n = anchors.length;
    const boxes = new Float32Array(n * 4);
    const logits = new Float32Array(n * 24).fill(-10);
    logits[5 * 24] = 10; // background at anchor 5: ignored
    logits[7 * 24 + 22] = 2; // class 22 at anchor 7
    const dets = decodeSsd(boxes, logits, anchors, 24, 0.5);
    expect(dets).toHaveLength(1);
    const a = anchors[7]!;
    expect(dets[0]!.label).toBe(22);
    expect(dets[0]!.box.left).toBeCloseTo(a.cx - a.w / 2, 6);
    expect(dets[0]!.box.height).toBeCloseTo(a.h, 6);
  });
});
