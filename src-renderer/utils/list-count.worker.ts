/**
 * The worker that counts a URL list for the New batch preview, so a long list (100 000 lines:
 * ≈ 1 s of parsing in Chromium, more as CSV) never holds the page's thread. Started by
 * `list-count.ts`; one request at a time, answered in order.
 */
import { previewUrlList } from '../../src-main/shared/list-preview';
import type { CountReply, CountRequest } from './list-count';

self.onmessage = (event: MessageEvent<CountRequest>) => {
  const { id, text, format } = event.data;
  const reply: CountReply = { id, preview: previewUrlList({ text, format }) };
  self.postMessage(reply);
};
