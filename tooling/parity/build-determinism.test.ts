/**
 * Rebuilding a model from its pinned source gives the byte-identical file the manifest records
 * (the full `npm run models:build` takes about a minute; one small model keeps CI fast).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../convert/build';
import { buildSpecs } from '../convert/specs';
import { loadManifest } from '../../src-main/inference';
import { repoRoot } from '../../test/helpers/paths';

describe('model build determinism', () => {
  it('rebuilding emotion twice reproduces the shipped sha256', async () => {
    const shipped = loadManifest(join(repoRoot, 'models', 'manifest.json')).models.get('emotion')!;
    const spec = buildSpecs.find((s) => s.id === 'emotion')!;
    const dir = mkdtempSync(join(tmpdir(), 'picscan-build-'));
    try {
      const a = await buildModel(spec, dir);
      const first = readFileSync(join(dir, a.file));
      const b = await buildModel(spec, dir);
      expect(b.sha256).toBe(a.sha256);
      expect(Buffer.compare(first, readFileSync(join(dir, b.file)))).toBe(0);
      expect(a.sha256).toBe(shipped.sha256);
      expect(a.bytes).toBe(shipped.bytes);
      const { file: _f, ...rest } = a;
      const { file: _g, ...want } = shipped;
      expect(rest).toEqual(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
