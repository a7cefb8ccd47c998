import { describe, expect, it } from 'vitest';
import { distributedDeps } from '../../../src-main/cli/commands/distributed-backend';
import { loadConfig } from '../../../src-main/config';

// The distributed tuning knobs of the environment: a value that is not a positive number is
// refused in one line instead of turning its bound off (a NaN backlog is never full).

describe('distributed tuning knobs', () => {
  const config = loadConfig({}, {});
  it('passes positive numbers on and leaves unset knobs to the defaults', () => {
    const deps = distributedDeps({}, config, { PICSCAN_DIST_BACKLOG: '4', PICSCAN_DIST_RECONCILE_MS: '1000' });
    expect(deps?.tuning).toEqual({ maxBacklog: 4, reconcileMs: 1000 });
  });
  it.each(['abc', '', '0', '-5', 'Infinity'])('refuses PICSCAN_DIST_BACKLOG=%j with a clear message', (given) => {
    expect(() => distributedDeps({}, config, { PICSCAN_DIST_BACKLOG: given })).toThrow(
      expect.objectContaining({ code: 'invalid-input', message: `PICSCAN_DIST_BACKLOG must be a positive number, not "${given}".` }),
    );
  });
});
