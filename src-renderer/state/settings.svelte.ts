import type { GalleryAddRequest, GalleryState, ServerState, SettingsUpdate, UiSettings } from '../../src-main/shared';
import { checkRequest } from '../../src-main/shared/contract';
import { invoke } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

/** Settings, the API server's state and the galleries. */
export class SettingsState {
  settings = $state<UiSettings | null>(null);
  server = $state<ServerState | null>(null);
  galleries = $state<GalleryState | null>(null);
  error = $state<string | null>(null);
  saved = $state(false);
  saving = $state(false);

  constructor(private readonly transport: TransportSource = liveTransport) {}

  async load(): Promise<void> {
    try {
      const t = this.transport();
      const [settings, server, galleries] = await Promise.all([
        invoke('settings:get', undefined, t),
        invoke('server:status', undefined, t),
        invoke('galleries:list', undefined, t),
      ]);
      this.settings = settings;
      this.server = server;
      this.galleries = galleries;
      this.error = null;
    } catch (err) {
      this.error = `Could not load the settings: ${messageOf(err)}`;
    }
  }

  async save(change: SettingsUpdate): Promise<boolean> {
    this.saved = false;
    // The form checks with the contract's schema the backend parses with, before sending.
    const checked = checkRequest('settings:update', change);
    if (!checked.ok) {
      this.error = `The settings were not saved: ${checked.error.message}`;
      return false;
    }
    this.saving = true;
    try {
      this.settings = await invoke('settings:update', checked.value, this.transport());
      this.error = null;
      this.saved = true;
      return true;
    } catch (err) {
      this.error = `The settings were not saved: ${messageOf(err)}`;
      return false;
    } finally {
      this.saving = false;
    }
  }

  galleryError = $state<string | null>(null);
  adding = $state(false);

  /** Enrols a person or place; resolves to true when added (the error is in `galleryError`). */
  async addGalleryEntry(req: GalleryAddRequest): Promise<boolean> {
    const checked = checkRequest('galleries:add', req);
    if (!checked.ok) {
      this.galleryError = `Not added: ${checked.error.message}`;
      return false;
    }
    this.adding = true;
    this.galleryError = null;
    try {
      await invoke('galleries:add', checked.value, this.transport());
      this.galleries = await invoke('galleries:list', undefined, this.transport());
      return true;
    } catch (err) {
      this.galleryError = `Not added: ${messageOf(err)}`;
      return false;
    } finally {
      this.adding = false;
    }
  }

  async removeGalleryEntry(id: number): Promise<void> {
    try {
      await invoke('galleries:remove', { id }, this.transport());
      this.galleries = await invoke('galleries:list', undefined, this.transport());
    } catch (err) {
      this.error = `Could not remove it from the gallery: ${messageOf(err)}`;
    }
  }
}

export const settingsState = new SettingsState();
