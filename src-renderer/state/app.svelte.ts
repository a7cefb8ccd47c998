import type { AppInfo } from '../../src-main/shared/ipc';
import { invoke } from '../api/client';

/** App-wide state: identity of the running app and the last top-level error. */
export class AppState {
  info = $state<AppInfo | null>(null);
  error = $state<string | null>(null);

  async load(): Promise<void> {
    try {
      this.info = await invoke('app:info', undefined);
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    }
  }
}

export const appState = new AppState();
