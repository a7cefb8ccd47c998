import type { AppInfo, EventMap } from '../../src-main/shared';
import { invoke, onEvent } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

export type Theme = 'system' | 'light' | 'dark';

/** App-wide state: identity of the running app, the theme and the last top-level error. */
export class AppState {
  info = $state<AppInfo | null>(null);
  error = $state<string | null>(null);
  theme = $state<Theme>('system');
  /** Messages pushed by the main side (a batch that stopped on an error…), newest last. */
  notices = $state<Array<EventMap['app:notice'] & { id: number }>>([]);
  private nextNotice = 1;

  constructor(private readonly transport: TransportSource = liveTransport) {
    if (typeof localStorage !== 'undefined') {
      const saved = localStorage.getItem('picscan-theme');
      if (saved === 'light' || saved === 'dark') this.theme = saved;
    }
  }

  async load(): Promise<void> {
    try {
      this.info = await invoke('app:info', undefined, this.transport());
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /** Follows `app:notice` events; returns the unsubscribe function. */
  subscribe(): () => void {
    return onEvent('app:notice', (n) => (this.notices = [...this.notices.slice(-4), { ...n, id: this.nextNotice++ }]), this.transport());
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    if (typeof localStorage !== 'undefined') localStorage.setItem('picscan-theme', theme);
  }
}

export const appState = new AppState();
