import type { ResultDetail } from '../../src-main/shared';
import { invoke } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

/** One item's full result, and its re-analysis. */
export class DetailState {
  detail = $state.raw<ResultDetail | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  constructor(private readonly transport: TransportSource = liveTransport) {}

  async load(itemId: number): Promise<void> {
    this.loading = true;
    this.error = null;
    this.notice = null;
    try {
      this.detail = await invoke('results:get', { itemId }, this.transport());
    } catch (err) {
      this.detail = null;
      this.error = `Could not open item ${itemId}: ${messageOf(err)}`;
    } finally {
      this.loading = false;
    }
  }

  async reanalyze(): Promise<void> {
    const current = this.detail;
    if (!current) return;
    this.error = null;
    try {
      const item = await invoke('results:reanalyze', { itemId: current.item.itemId }, this.transport());
      this.detail = { item, response: current.response };
      this.notice = 'Queued for analysis again; the result updates when it is done.';
    } catch (err) {
      this.error = `Could not re-analyse this image: ${messageOf(err)}`;
    }
  }
}

export const detailState = new DetailState();
