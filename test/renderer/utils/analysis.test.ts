import { describe, expect, it } from 'vitest';
import { analysisExtras } from '../../../src-renderer/utils/analysis';

describe('analysisExtras', () => {
  it('reads the caption confidence, adult verdicts, colours and landmarks of an analyze response', () => {
    const extras = analysisExtras({
      description: { tags: [], captions: [{ text: 'the Colosseum', confidence: 0.61 }] },
      adult: { isAdultContent: false, isRacyContent: true, adultScore: 0.1, racyScore: 0.7 },
      color: {
        dominantColorForeground: 'Brown',
        dominantColorBackground: 'Blue',
        dominantColors: [],
        accentColor: 'A05020',
        isBWImg: false,
      },
      categories: [
        { name: 'building_', score: 0.8, detail: { landmarks: [{ name: 'Colosseum', confidence: 0.72 }] } },
        {
          name: 'outdoor_',
          score: 0.5,
          detail: {
            landmarks: [
              { name: 'Arch of Constantine', confidence: 0.9 },
              { name: 'Colosseum', confidence: 0.72 },
            ],
          },
        },
      ],
    });
    expect(extras).toEqual({
      captionConfidence: 0.61,
      isAdultContent: false,
      isRacyContent: true,
      foreground: 'Brown',
      background: 'Blue',
      landmarks: [
        { name: 'Arch of Constantine', confidence: 0.9 },
        { name: 'Colosseum', confidence: 0.72 },
      ],
    });
  });

  it('gives nothing for a detect response or no response', () => {
    const none = { captionConfidence: null, isAdultContent: null, isRacyContent: null, foreground: null, background: null, landmarks: [] };
    expect(analysisExtras({ images: [{ faces: [] }] })).toEqual(none);
    expect(analysisExtras(null)).toEqual(none);
  });
});
