import { describe, expect, it } from 'vitest';
import { faceOverlays } from '../../../src-renderer/utils/faces';

describe('face overlays', () => {
  it('draws analyze faces and names the celebrities whose boxes match', () => {
    const response = {
      faces: [
        { age: 60, gender: 'Male', faceRectangle: { left: 10, top: 20, width: 50, height: 50 } },
        { age: 30, gender: 'Female', faceRectangle: { left: 200, top: 20, width: 40, height: 40 } },
      ],
      categories: [
        {
          name: 'people_',
          score: 0.9,
          detail: { celebrities: [{ name: 'Joe Biden', confidence: 0.9, faceRectangle: { left: 11, top: 21, width: 50, height: 50 } }] },
        },
      ],
    };
    expect(faceOverlays(response).map((f) => [f.left, f.label])).toEqual([
      [10, 'Joe Biden'],
      [200, 'Female, 30'],
    ]);
  });

  it('draws detect faces with eye and chin points', () => {
    const response = {
      images: [
        {
          status: 'Complete',
          faces: [
            {
              topLeftX: 5,
              topLeftY: 6,
              width: 30,
              height: 40,
              leftEyeCenterX: 12,
              leftEyeCenterY: 15,
              rightEyeCenterX: 25,
              rightEyeCenterY: 15,
              chinTipX: 18,
              chinTipY: 44,
            },
          ],
        },
      ],
    };
    const [face] = faceOverlays(response);
    expect(face).toMatchObject({ left: 5, top: 6, width: 30, height: 40 });
    expect(face!.points).toEqual([
      { x: 12, y: 15, kind: 'eye' },
      { x: 25, y: 15, kind: 'eye' },
      { x: 18, y: 44, kind: 'chin' },
    ]);
  });

  it('draws nothing for a missing or faceless response', () => {
    expect(faceOverlays(null)).toEqual([]);
    expect(faceOverlays({ Errors: [{ Message: 'no faces', ErrCode: 5002 }] })).toEqual([]);
  });
});
