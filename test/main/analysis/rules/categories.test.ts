import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORY_NAMES, categorize, type Evidence } from '../../../../src-main/analysis';
import type { DetectedObject, CocoLabel } from '../../../../src-main/analysis';
import type { FaceEvidence } from '../../../../src-main/analysis';
import { repoRoot } from '../../../helpers/paths';
import { plainEvidence } from '../../../helpers/evidence';

const reference = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'reference', 'azure-86-categories.json'), 'utf8')) as string[];

const base = plainEvidence;

const obj = (label: CocoLabel, score = 0.8, box = { left: 100, top: 100, width: 200, height: 200 }): DetectedObject => ({
  label,
  score,
  box,
});
const face = (age: number, size = 120, gender: 'Male' | 'Female' = 'Male'): FaceEvidence => ({
  box: { left: 200, top: 50, width: size, height: size },
  confidence: 0.95,
  age,
  gender,
  genderConfidence: 0.9,
  glasses: false,
  smiling: false,
});
type Patch = { scene?: Partial<Evidence['scene']> } & Partial<Omit<Evidence, 'scene'>>;
function make(p: Patch): Evidence {
  const e = base();
  return { ...e, ...p, scene: { ...e.scene, ...p.scene } };
}

/** Scenarios chosen so that, together, they exercise every rule of the table. */
const SCENARIOS: Record<string, Patch> = {
  portrait: { faces: [face(35, 200)] },
  group: { faces: [face(30, 60), face(32, 60), face(28, 60), face(40, 60)] },
  many: { faces: Array.from({ length: 10 }, () => face(30, 30)) },
  crowd: { faces: Array.from({ length: 20 }, () => face(30, 15)) },
  kids: { faces: [face(2, 80), face(6, 80)], scene: { vegetation: 0.35, sky: 0.2 } },
  swimmers: { faces: [face(25, 50)], scene: { water: 0.45 } },
  show: { faces: [face(25, 30)], scene: { brightness: 0.2, dark: 0.6, brightSpots: 0.06, sky: 0.2 } },
  hand: { scene: { skin: 0.6 } },
  tattoo: { objects: [obj('person', 0.9)], scene: { skin: 0.55, textBlocks: 0.2 } },
  animals: { objects: [obj('bird'), obj('cat'), obj('dog'), obj('horse')] },
  panda: { objects: [obj('bear')], color: { ...base().color, dominantColors: ['Black', 'White'] } },
  building: {
    scene: { straightEdges: 0.15, sky: 0.25, edges: 0.35, verticalShare: 0.8 },
    chroma: { p50: 5, p90: 10, p99: 15, hueConcentration: 0.5 },
    height: 800,
  },
  stair: { scene: { straightEdges: 0.15, sky: 0.25, verticalShare: 0.1 }, objects: [obj('car')] },
  house: { scene: { straightEdges: 0.15, sky: 0.25, vegetation: 0.25 } },
  brick: { scene: { straightEdges: 0.2 }, color: { ...base().color, dominantColorBackground: 'Red' } },
  night: { scene: { brightness: 0.15, dark: 0.8, sky: 0.3, warmGlow: 0.15, brightSpots: 0.08, colorfulness: 0.8 } },
  drinks: { objects: [obj('cup'), obj('bottle', 0.8, { left: 10, top: 10, width: 50, height: 60 })] },
  food: { objects: [obj('pizza'), obj('sandwich'), obj('hot dog'), obj('donut')] },
  room: {
    objects: [obj('couch'), obj('tv'), obj('book'), obj('clock'), obj('vase'), obj('laptop'), obj('remote')],
    scene: { straightEdges: 0.2 },
  },
  venue: { objects: [obj('chair'), obj('cup')], faces: Array.from({ length: 6 }, () => face(30, 20)), scene: { brightness: 0.3 } },
  court: { objects: [obj('sports ball'), obj('tennis racket')], faces: [face(25, 40)] },
  churchwindow: { scene: { dark: 0.5, colorfulness: 1, brightSpots: 0.1 } },
  sculpture: { objects: [obj('person', 0.9)], chroma: { p50: 4, p90: 8, p99: 12, hueConcentration: 0.5 } },
  fields: { scene: { vegetation: 0.6, sky: 0.3, edges: 0.25 }, objects: [obj('sports ball')] },
  beach: { scene: { water: 0.4, sky: 0.3, skin: 0.1, warmGlow: 0.1, vegetation: 0.25, straightEdges: 0.12 } },
  pool: { scene: { water: 0.45, straightEdges: 0.12 } },
  rocks: { scene: { sky: 0.2, edges: 0.4, straightEdges: 0.02 }, chroma: { p50: 5, p90: 10, p99: 15, hueConcentration: 0.5 } },
  mountain: { scene: { sky: 0.4, straightEdges: 0.01, edges: 0.2 }, chroma: { p50: 8, p90: 15, p99: 20, hueConcentration: 0.5 } },
  street: {
    objects: [obj('traffic light'), obj('car'), obj('train'), obj('bus'), obj('bicycle'), obj('stop sign')],
    scene: { sky: 0.2, straightEdges: 0.2 },
  },
  plants: { objects: [obj('potted plant'), obj('vase')], color: { ...base().color, dominantColorForeground: 'Pink' } },
  branch: { scene: { vegetation: 0.25, sky: 0.55, edges: 0.2 } },
  sky: { scene: { sky: 0.6, skyGrey: 0.3, warmGlow: 0.12 }, objects: [obj('airplane')] },
  screen: { objects: [obj('tv')] },
  text: { scene: { textBlocks: 0.5, page: 0.8, colorfulness: 0.2 }, height: 900 },
  textOutdoor: { scene: { textBlocks: 0.5, page: 0.8, colorfulness: 0.2, sky: 0.3 } },
  magazine: { scene: { textBlocks: 0.5, page: 0.8, colorfulness: 0.6 }, faces: [face(30, 100)] },
  map: { scene: { textBlocks: 0.5, page: 0.8, colorfulness: 0.7 } },
  clipart: {
    imageType: { clipArtType: 3, lineDrawingType: 0, clipArtScore: 0.9 },
    scene: { straightEdges: 0.25 },
    chroma: { p50: 0, p90: 60, p99: 80, hueConcentration: 0.9 },
  },
  net: { scene: { edges: 0.5, straightEdges: 0.25 } },
  nothing: {},
};

describe('categories', () => {
  it('uses exactly the 86 taxonomy names', () => {
    expect([...CATEGORY_NAMES].sort()).toEqual([...reference].sort());
    expect(new Set(CATEGORY_NAMES).size).toBe(86);
  });

  it('can reach every one of the 86 names through some rule', () => {
    const reached = new Set<string>();
    for (const [scenario, patch] of Object.entries(SCENARIOS)) {
      const cats = categorize(make(patch));
      for (const c of cats) {
        expect(reference, scenario).toContain(c.name);
        expect(c.score).toBeGreaterThan(0);
        expect(c.score).toBeLessThanOrEqual(1);
        reached.add(c.name);
      }
    }
    expect(reference.filter((n) => !reached.has(n))).toEqual([]);
  });

  it('adds the generic parent whenever a child applies, and sorts by score', () => {
    for (const patch of Object.values(SCENARIOS)) {
      const cats = categorize(make(patch));
      const names = new Set(cats.map((c) => c.name));
      for (const c of cats) {
        const group = c.name.slice(0, c.name.indexOf('_') + 1);
        if (c.name !== group && reference.includes(group)) expect(names.has(group), `${c.name} without ${group}`).toBe(true);
      }
      const scores = cats.map((c) => c.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('falls back to others_ when nothing is recognised', () => {
    expect(categorize(make({})).map((c) => c.name)).toEqual(['others_']);
  });
});
