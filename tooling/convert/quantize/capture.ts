/**
 * Captures the real inputs each model receives while the product analyses images: a ModelRunner
 * around the engine that keeps a copy of every feed by model id. Calibration then sees exactly the
 * preprocessing, crops and face alignments the product produces (batched feeds [N,…] included).
 * Every feed is kept (no cap): with concurrent model calls the order of feeds may vary, and
 * min/max ranges over the full set do not depend on it.
 */
import type { ModelRunner } from '../../../src-main/inference';
import type { Feeds } from './calibrate';

export class FeedRecorder implements ModelRunner {
  readonly feeds = new Map<string, Feeds[]>();

  constructor(
    private readonly inner: ModelRunner,
    /** Model ids to record; all when omitted. */
    private readonly ids?: ReadonlySet<string>,
  ) {}

  spec(modelId: string): ReturnType<ModelRunner['spec']> {
    return this.inner.spec(modelId);
  }

  run(modelId: string, feeds: Parameters<ModelRunner['run']>[1], signal?: AbortSignal): ReturnType<ModelRunner['run']> {
    if (!this.ids || this.ids.has(modelId)) {
      const list = this.feeds.get(modelId) ?? this.feeds.set(modelId, []).get(modelId)!;
      list.push(
        Object.fromEntries(Object.entries(feeds).map(([k, t]) => [k, { dtype: 'float32', dims: [...t.dims], data: t.data.slice() }])),
      );
    }
    return this.inner.run(modelId, feeds, signal);
  }
}
