import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import type { GalleryEntry } from '../../../src-main/shared';
import { SettingsState } from '../../../src-renderer/state/settings.svelte';
import { fakeDeps, inProcessTransport } from '../helpers';

describe('SettingsState', () => {
  it('loads settings, server state and galleries; saves without ever holding the key', async () => {
    const s = new SettingsState(() => inProcessTransport());
    await s.load();
    expect(s.settings?.remoteKeySet).toBe(false);
    expect(s.server?.running).toBe(true);
    expect(s.galleries).toEqual({ available: false, entries: [] });
    expect(await s.save({ remoteKey: 'sk-1', downloadConcurrency: 4 })).toBe(true);
    expect(s.settings).toMatchObject({ remoteKeySet: true, downloadConcurrency: 4 });
    expect(JSON.stringify(s.settings)).not.toContain('sk-1');
    expect(await s.save({ downloadConcurrency: 999 })).toBe(false);
    expect(s.error).toMatch(/The settings were not saved: Invalid settings:update request \(downloadConcurrency/);
  });

  it('adds and removes gallery entries, explaining a refused reference', async () => {
    const deps = fakeDeps();
    const entries: GalleryEntry[] = [];
    deps.galleries = {
      list: async () => ({ available: true, entries: [...entries] }),
      add: async (req) => {
        if (req.images[0] === 'group.jpg') throw new AppError('invalid-input', 'group.jpg shows 3 faces; choose one with faceNumber.');
        const e: GalleryEntry = { id: entries.length + 1, kind: req.kind, name: req.name, references: req.images.length };
        entries.push(e);
        return e;
      },
      remove: async (id) =>
        void entries.splice(
          entries.findIndex((e) => e.id === id),
          1,
        ),
    };
    const s = new SettingsState(() => inProcessTransport(deps));
    await s.load();
    expect(await s.addGalleryEntry({ kind: 'person', name: 'Grace Hopper', images: ['hopper.jpg'] })).toBe(true);
    expect(s.galleries?.entries).toEqual([{ id: 1, kind: 'person', name: 'Grace Hopper', references: 1 }]);
    expect(await s.addGalleryEntry({ kind: 'person', name: 'Crowd', images: ['group.jpg'] })).toBe(false);
    expect(s.galleryError).toBe('Not added: group.jpg shows 3 faces; choose one with faceNumber.');
    await s.removeGalleryEntry(1);
    expect(s.galleries?.entries).toEqual([]);
  });
});
