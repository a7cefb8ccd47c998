import {
  DETAILS,
  MIN_HEAD_SCALE,
  SELECTORS,
  VISUAL_FEATURES,
  type BatchImportReport,
  type BatchOptions,
  type Detail,
  type Selector,
  type UrlListInput,
  type VisualFeature,
} from '../../src-main/shared';
import { checkRequest } from '../../src-main/shared/contract';
import { invoke } from '../api/client';
import { formatOf, previewUrlList, type UrlListPreview } from '../utils/url-list';
import { liveTransport, messageOf, type TransportSource } from './transport';

export { DETAILS, SELECTORS, VISUAL_FEATURES };

/**
 * A list longer than this many characters (≈ 2 000 URLs) is counted and checked once typing
 * pauses for LIST_RECOUNT_DELAY_MS, not on every keystroke: parsing 10 000 lines takes ≈ 0.7 s,
 * which froze the page at each key. Shorter lists are counted at once.
 */
export const LIST_RECOUNT_CHARS = 100_000;
export const LIST_RECOUNT_DELAY_MS = 300;

/** The "New batch" form: the URL list, what to run, where, and the counts before starting. */
export class NewBatchState {
  #text = $state('');
  /** The list as last counted: `text`, or what it was before the keystrokes still waiting to be counted. */
  counted = $state('');
  #recount: ReturnType<typeof setTimeout> | undefined;
  fileName = $state<string | null>(null);
  name = $state('');
  operation = $state<'analyze' | 'detect'>('analyze');
  features = $state<VisualFeature[]>([...VISUAL_FEATURES]);
  details = $state<Detail[]>([]);
  minHeadScale = $state<number>(MIN_HEAD_SCALE.default);
  selectors = $state<Selector[]>(['FRONTAL']);
  backend = $state<'local' | 'remote' | 'distributed'>('local');
  remoteUrl = $state('');
  submitting = $state(false);
  error = $state<string | null>(null);
  report = $state<BatchImportReport | null>(null);

  format: UrlListInput['format'] = $derived(formatOf(this.fileName));
  preview: UrlListPreview = $derived(previewUrlList({ text: this.counted, format: this.format }));

  /** The URL list as typed, pasted or opened. */
  get text(): string {
    return this.#text;
  }

  set text(value: string) {
    this.#text = value;
    clearTimeout(this.#recount);
    if (value.length <= LIST_RECOUNT_CHARS) this.counted = value;
    else this.#recount = setTimeout(() => this.countNow(), LIST_RECOUNT_DELAY_MS);
  }

  /** Counts and checks the list as it is now (before a start, or when a file was opened). */
  countNow(): void {
    clearTimeout(this.#recount);
    this.counted = this.#text;
  }

  /** Why the batch cannot start yet, in plain words; null when it can. */
  blocker: string | null = $derived.by(() => {
    if (this.counted !== this.text) return 'Counting the URLs…';
    if (this.preview.problem) return this.preview.problem;
    if (this.preview.valid === 0) return 'Add at least one valid http:// or https:// image URL.';
    if (this.operation === 'analyze' && this.features.length === 0) return 'Choose at least one feature to analyse.';
    if (this.backend === 'remote' && !/^https?:\/\/\S+$/.test(this.remoteUrl.trim()))
      return 'Enter the remote service base URL (http:// or https://).';
    // The rest as the backend will check it: the contract's batches:create schema.
    const checked = checkRequest('batches:create', { list: { text: this.counted, format: this.format }, options: this.options() });
    return checked.ok ? null : checked.error.message;
  });

  constructor(private readonly transport: TransportSource = liveTransport) {}

  /** Takes a file's text (opened or dropped); `.csv` files are read by their `url` column. */
  loadFile(name: string, text: string): void {
    this.fileName = name;
    this.text = text;
    this.countNow();
    if (!this.name) this.name = name.replace(/\.(txt|csv)$/i, '');
  }

  toggle<T>(list: T[], value: T): T[] {
    return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  }

  options(): BatchOptions {
    const name =
      this.name.trim() || `Batch of ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.now())}`;
    return {
      name,
      operation:
        this.operation === 'analyze'
          ? { kind: 'analyze', features: [...this.features], details: [...this.details] }
          : { kind: 'detect', minHeadScale: this.minHeadScale, selector: [...this.selectors] },
      backend:
        this.backend === 'local'
          ? { kind: 'local' }
          : this.backend === 'remote'
            ? { kind: 'remote', baseUrl: this.remoteUrl.trim() }
            : // The Redis address is the one in Settings; the backend fills it in with a new queue key.
              { kind: 'distributed', redisUrl: '', queueKey: '' },
    };
  }

  /** Creates and starts the batch; resolves to its report, or null (the error is in `error`). */
  async submit(): Promise<BatchImportReport | null> {
    this.countNow();
    if (this.blocker) {
      this.error = this.blocker;
      return null;
    }
    this.submitting = true;
    this.error = null;
    try {
      this.report = await invoke(
        'batches:create',
        { list: { text: this.text, format: this.format }, options: this.options() },
        this.transport(),
      );
      return this.report;
    } catch (err) {
      this.error = `The batch was not created: ${messageOf(err)}`;
      return null;
    } finally {
      this.submitting = false;
    }
  }

  reset(): void {
    this.text = '';
    this.countNow();
    this.fileName = null;
    this.name = '';
    this.report = null;
    this.error = null;
  }
}

export const newBatchState = new NewBatchState();
