import { describe, expect, it } from 'vitest';
import { launchEnv, MALLOC_ARENAS } from '../../../bin/process-env.js';

describe('the environment npm start gives its processes', () => {
  it('caps glibc malloc arenas on Linux and keeps every other variable', () => {
    const env = { PATH: '/usr/bin', PICSCAN_DATA_DIR: '/data' };
    const out = launchEnv(env, 'linux');
    expect(out).toEqual({ PATH: '/usr/bin', PICSCAN_DATA_DIR: '/data', MALLOC_ARENA_MAX: MALLOC_ARENAS });
    expect(env).not.toHaveProperty('MALLOC_ARENA_MAX');
  });

  it("keeps the user's own setting, even an empty one", () => {
    for (const value of ['8', '']) {
      const env = { MALLOC_ARENA_MAX: value };
      expect(launchEnv(env, 'linux')).toBe(env);
    }
  });

  it('changes nothing where the C library is not glibc', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const env = { PATH: 'x' };
      expect(launchEnv(env, platform)).toBe(env);
    }
  });
});
