// Photo or drawing, for the face-free fixtures (test/fixtures/negatives) and the scene fixtures
// (test/fixtures/scenes, all photographs): what the photo probe is calibrated on
// (tooling/image-type/probe-data.ts) and what the thumbnails eval scores (thumbnails.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths';

const fixturesRoot = join(repoRoot, 'test/fixtures');

export type MediumLabel = 'photo' | 'drawing';

export interface NegativeEntry {
  file: string;
  category: string;
  subject: string;
}

/** A face-free fixture: photo or drawing by its manifest subject; undefined when neither is clear. */
export function negativeLabel(e: Pick<NegativeEntry, 'category' | 'subject'>): MediumLabel | undefined {
  if (/\bphotograph\b/.test(e.subject)) return 'photo';
  if (/photographed|noise|plasma/.test(e.subject)) return undefined;
  return ['cartoon', 'chart', 'pattern', 'text-printed', 'text-handwritten', 'statue-mask'].includes(e.category) ? 'drawing' : undefined;
}

/** The face-free fixtures' manifest. */
export function negativeEntries(): NegativeEntry[] {
  return JSON.parse(readFileSync(join(fixturesRoot, 'negatives/manifest.json'), 'utf8')) as NegativeEntry[];
}

/** Every labelled fixture of negatives and scenes, as a path and its label. */
export function labelledFixtures(): { path: string; label: MediumLabel }[] {
  const negatives = negativeEntries().flatMap((e) => {
    const label = negativeLabel(e);
    return label ? [{ path: join(fixturesRoot, 'negatives', e.file), label }] : [];
  });
  const scenes = readdirSync(join(fixturesRoot, 'scenes'))
    .filter((n) => /\.(jpe?g|png)$/i.test(n))
    .sort()
    .map((n) => ({ path: join(fixturesRoot, 'scenes', n), label: 'photo' as const }));
  return [...negatives, ...scenes];
}
