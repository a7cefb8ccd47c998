import type { Evidence } from '../../src-main/analysis';

/** A plain, unremarkable colour photo of 600×400 px: no objects, no faces, no scene cues. */
export function plainEvidence(): Evidence {
  return {
    width: 600,
    height: 400,
    color: {
      dominantColorForeground: 'Gray',
      dominantColorBackground: 'Gray',
      dominantColors: ['Gray'],
      accentColor: '808080',
      isBWImg: false,
    },
    chroma: { p50: 20, p90: 30, p99: 40, hueConcentration: 0.5 },
    scene: {
      sky: 0,
      skyGrey: 0,
      skyDark: 0,
      vegetation: 0,
      water: 0,
      snow: 0,
      brightness: 0.5,
      dark: 0.05,
      brightSpots: 0,
      warmGlow: 0,
      skin: 0,
      textBlocks: 0,
      textLines: 0,
      page: 0,
      starPoints: 0,
      qrCode: 0,
      barcode: 0,
      repetition: 0,
      letteringInk: 0,
      letteringBands: 0,
      edges: 0.1,
      straightEdges: 0.02,
      verticalShare: 0.5,
      colorfulness: 0.4,
      uniform: 0.05,
      levelSpan: 200,
    },
    ink: { paper: 0.05, ink: 0.3, mid: 0.65, thinInk: 0.05, inkColour: 40 },
    imageType: { clipArtType: 0, lineDrawingType: 0, clipArtScore: 0 },
    objects: [],
    faces: [],
  };
}
