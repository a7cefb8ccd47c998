import { describe, expect, it } from 'vitest';
import { iou, l2Normalize, nms, sigmoid, softmax, topK } from '../../../src-main/inference';

describe('tensor helpers', () => {
  it('softmax sums to one and is stable for large logits', () => {
    const p = softmax([1000, 1000, 1000 - Math.log(2)]);
    expect(p[0]).toBeCloseTo(0.4, 6);
    expect(p[2]).toBeCloseTo(0.2, 6);
    expect(softmax([]).length).toBe(0);
  });

  it('sigmoid matches 1/(1+e^-x) without overflow', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(2)).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
  });

  it('topK returns the highest values first, ties by lower index', () => {
    expect(topK([0.1, 0.5, 0.5, 0.2], 3)).toEqual([
      { index: 1, score: 0.5 },
      { index: 2, score: 0.5 },
      { index: 3, score: 0.2 },
    ]);
    expect(topK([1], 0)).toEqual([]);
  });

  it('l2Normalize gives unit length and keeps zero vectors', () => {
    expect([...l2Normalize([3, 4])]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...l2Normalize([0, 0])]).toEqual([0, 0]);
  });

  it('iou of known boxes', () => {
    const a = { left: 0, top: 0, width: 2, height: 2 };
    expect(iou(a, a)).toBe(1);
    expect(iou(a, { left: 1, top: 0, width: 2, height: 2 })).toBeCloseTo(2 / 6, 12);
    expect(iou(a, { left: 5, top: 5, width: 1, height: 1 })).toBe(0);
    expect(iou(a, { left: 0, top: 0, width: 0, height: 0 })).toBe(0);
  });

  it('nms keeps the best of overlapping boxes, respects minScore and maxCount', () => {
    const boxes = [
      { left: 0, top: 0, width: 10, height: 10 },
      { left: 1, top: 1, width: 10, height: 10 },
      { left: 50, top: 50, width: 10, height: 10 },
      { left: 100, top: 100, width: 10, height: 10 },
    ];
    expect(nms(boxes, [0.8, 0.9, 0.7, 0.1], { iouThreshold: 0.5 })).toEqual([1, 2, 3]);
    expect(nms(boxes, [0.8, 0.9, 0.7, 0.1], { iouThreshold: 0.5, minScore: 0.5 })).toEqual([1, 2]);
    expect(nms(boxes, [0.8, 0.9, 0.7, 0.1], { iouThreshold: 0.5, maxCount: 1 })).toEqual([1]);
    // Equal scores: the lower index wins deterministically.
    expect(nms(boxes.slice(0, 2), [0.5, 0.5], { iouThreshold: 0.5 })).toEqual([0]);
  });
});
