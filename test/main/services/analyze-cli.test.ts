// `picscan analyze` end to end: the real command in a child process on a real fixture.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalyzeEnvelope } from '../../../src-main/shared/spec';
import { runPicscan } from '../../helpers/cli';
import { OBAMA_SECOND_REFERENCE } from '../analysis/gallery/support';
import { fixture } from '../../helpers/paths';

describe('picscan analyze', () => {
  it('prints the success envelope for a local file and exits 0', async () => {
    const run = await runPicscan(['analyze', fixture('horse_silhouette_clipart.png'), '--features', 'Color,ImageType,Description'], {
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const env = JSON.parse(run.stdout) as AnalyzeEnvelope;
    expect(env).toMatchObject({ query: 'analyze', response: 'success', status: true, transaction: { Method: 'local' } });
    expect(env.data!.metadata).toEqual({ width: 400, height: 328, format: 'Png' });
    expect(env.data!.color!.isBWImg).toBe(true);
    expect(env.data!.imageType!.clipArtType).toBeGreaterThanOrEqual(2);
    expect(Object.keys(env.data!).sort()).toEqual(['color', 'description', 'imageType', 'metadata', 'requestId']);
  });

  it('prints a failure envelope with the Azure code; exits 2 for a bad feature, 1 for a missing image', async () => {
    const bad = await runPicscan(['analyze', fixture('cat_chelsea.jpg'), '--features', 'Tags,Brands'], { timeoutMs: 120_000 });
    expect(bad.code).toBe(2);
    const env = JSON.parse(bad.stdout) as AnalyzeEnvelope;
    expect(env.status).toBe(false);
    expect(env.error!.code).toBe('NotSupportedVisualFeature');
    const missing = await runPicscan(['analyze', fixture('missing.png')], { timeoutMs: 120_000 });
    expect(missing.code).toBe(1);
    expect((JSON.parse(missing.stdout) as AnalyzeEnvelope).error!.code).toBe('InvalidImageUrl');
  });

  it('names a person enrolled in the --db database', { timeout: 300_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'picscan-analyze-db-')), 'people.db');
    // Two references: with one portrait his score in the group photo (0.59) is below the
    // calibrated threshold (docs/galleries.md).
    const enrol = await runPicscan(
      ['gallery', 'add-person', 'Barack Obama', fixture('obama_portrait.jpg'), OBAMA_SECOND_REFERENCE, '--db', db],
      {
        timeoutMs: 120_000,
      },
    );
    expect(enrol.code, enrol.stderr).toBe(0);
    const run = await runPicscan(
      ['analyze', fixture('obama_biden_two_people.jpg'), '--features', 'Categories', '--details', 'Celebrities', '--db', db],
      { timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as AnalyzeEnvelope;
    const people = envelope.data!.categories!.find((c) => c.name === 'people_');
    expect(people?.detail?.celebrities?.map((c) => c.name)).toEqual(['Barack Obama']);
  });
});
