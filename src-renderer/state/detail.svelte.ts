import type { ResultDetail } from '../../src-main/shared';
import { invoke } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

/** One item's full result, and its re-analysis. */
export class DetailState {
  detail = $state.raw<ResultDetail | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);

  /** Number of the latest load: an answer to an earlier one (another item opened since) is dropped. */
  private loads = 0;

  constructor(private readonly transport: TransportSource = liveTransport) {}

  async load(itemId: number): Promise<void> {
    const load = ++this.loads;
    // Another item's detail must not stand under this item's id while it loads.
    if (this.detail?.item.itemId !== itemId) this.detail = null;
    this.loading = true;
    this.error = null;
    this.notice = null;
    try {
      const detail = await invoke('results:get', { itemId }, this.transport());
      if (load === this.loads) this.detail = detail;
    } catch (err) {
      if (load !== this.loads) return;
      this.detail = null;
      this.error = `Could not open item ${itemId}: ${messageOf(err)}`;
    } finally {
      if (load === this.loads) this.loading = false;
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
