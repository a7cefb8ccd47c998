import { describe, expect, it } from 'vitest';
import { AppState } from '../../../src-renderer/state/app.svelte';
import { inProcessTransport } from '../helpers';

describe('AppState', () => {
  it('loads the app identity and shows pushed notices until dismissed', async () => {
    const t = inProcessTransport();
    const s = new AppState(() => t);
    await s.load();
    expect(s.info).toMatchObject({ name: 'picscan', mode: 'web' });
    const off = s.subscribe();
    t.emit('app:notice', { level: 'error', message: 'Batch 3 stopped: the disk is full.' });
    expect(s.notices).toEqual([{ id: 1, level: 'error', message: 'Batch 3 stopped: the disk is full.' }]);
    s.dismiss(1);
    expect(s.notices).toEqual([]);
    off();
  });

  it('remembers the chosen theme', () => {
    const s = new AppState(() => undefined);
    s.setTheme('dark');
    expect(new AppState(() => undefined).theme).toBe('dark');
    s.setTheme('system');
  });
});
