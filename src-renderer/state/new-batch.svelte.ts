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
import { countList } from '../utils/list-count';
import { summariseList, type ListSummary } from '../utils/list-summary';
import { formatOf, previewUrlList, type UrlListPreview } from '../utils/url-list';
import { liveTransport, messageOf, type TransportSource } from './transport';

export { DETAILS, SELECTORS, VISUAL_FEATURES };

/**
 * A list longer than this many characters (≈ 2 000 URLs) is counted in a worker
 * (`utils/list-count.ts`) once typing pauses for LIST_RECOUNT_DELAY_MS: counting 100 000 lines
 * on the page held it for ≈ 1 s (text) to ≈ 4 s (CSV). Shorter lists are counted on the page at
 * once (≈ 15 ms at this size), so their counts follow each keystroke.
 */
export const LIST_RECOUNT_CHARS = 100_000;
export const LIST_RECOUNT_DELAY_MS = 300;

/**
 * A list pasted or opened over this many characters (≈ 100 KB, ≈ 2 000 URLs) is held: kept here
 * and summed up in the view, never put in the textarea. Chromium lays out a textarea's whole text
 * at once on the page's thread: 100 000 lines (≈ 6 MB) froze the page ≈ 4 s after a paste; at this
 * size the longest frame took ≈ 70–90 ms (≈ 20 ms with an empty textarea), and it grows with the
 * text (≈ 100–180 ms at 300 KB). Typing grows a list in the textarea past it without holding it:
 * a list someone is typing in must not vanish under the cursor.
 */
export const HELD_LIST_CHARS = 100_000;

/** A list too long for the textarea: where it came from, and what the view shows of it. */
export interface HeldList extends ListSummary {
  from: 'pasted' | 'file';
}

/** A list's counts, with the list they are of. */
interface Counted {
  text: string;
  format: UrlListInput['format'];
  preview: UrlListPreview;
}

const countHere = (text: string, format: UrlListInput['format']): Counted => ({ text, format, preview: previewUrlList({ text, format }) });

/** The "New batch" form: the URL list, what to run, where, and the counts before starting. */
export class NewBatchState {
  #text = $state('');
  /** The last counts shown: of `text`, or of what it was before the changes still being counted. */
  #counted = $state.raw<Counted>(countHere('', 'txt'));
  #recount: ReturnType<typeof setTimeout> | undefined;
  /** The list when it is held rather than in the textarea (`text` is then its whole text). */
  held = $state.raw<HeldList | null>(null);
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
  /** The counts of the list as it is now; null while it is being counted (older counts are never shown). */
  preview: UrlListPreview | null = $derived(
    this.#counted.text === this.#text && this.#counted.format === this.format ? this.#counted.preview : null,
  );

  /** The URL list as typed, pasted or opened (held or in the textarea). */
  get text(): string {
    return this.#text;
  }

  /** The list as typed in the textarea: it replaces a held one, and is never held itself. */
  set text(value: string) {
    this.held = null;
    this.#text = value;
    clearTimeout(this.#recount);
    if (value.length <= LIST_RECOUNT_CHARS) this.#counted = countHere(value, this.format);
    else this.#recount = setTimeout(() => void this.countNow(), LIST_RECOUNT_DELAY_MS);
  }

  /** Holds `text` as the list (nothing more is typed into it: counted at once, in the worker). */
  #hold(text: string, from: HeldList['from']): void {
    this.#text = text;
    this.held = { from, ...summariseList(text) };
    clearTimeout(this.#recount);
    void this.countNow();
  }

  /**
   * A paste of `pasted` over the textarea's selection [`start`, `end`). When the list it makes is
   * over HELD_LIST_CHARS, that list is held and this returns true: the caller then stops the
   * browser's own paste, which would lay the text out in the textarea. Otherwise it returns false
   * and the paste goes into the textarea as usual.
   */
  paste(pasted: string, start: number, end: number): boolean {
    const text = this.#text.slice(0, start) + pasted + this.#text.slice(end);
    if (text.length <= HELD_LIST_CHARS) return false;
    this.#hold(text, 'pasted');
    return true;
  }

  /** Drops the list (held or typed): back to an empty textarea, read as text. */
  clear(): void {
    this.fileName = null; // first: the empty list is then counted as text at once
    this.text = '';
  }

  /**
   * Counts the list as it is now (before a start, or when a file was opened), in the worker;
   * resolves once its counts are shown, or once the list changed meanwhile (their counts are then
   * dropped: counts of an older list are never shown).
   */
  async countNow(): Promise<void> {
    clearTimeout(this.#recount);
    if (this.preview) return;
    const list = { text: this.#text, format: this.format };
    const preview = await countList(list);
    if (list.text === this.#text && list.format === this.format) this.#counted = { ...list, preview };
  }

  /** Why the batch cannot start yet, in plain words; null when it can. */
  blocker: string | null = $derived.by(() => {
    if (!this.preview) return 'Counting the URLs…';
    if (this.preview.problem) return this.preview.problem;
    if (this.preview.valid === 0) return 'Add at least one valid http:// or https:// image URL.';
    if (this.operation === 'analyze' && this.features.length === 0) return 'Choose at least one feature to analyse.';
    if (this.backend === 'remote' && !/^https?:\/\/\S+$/.test(this.remoteUrl.trim()))
      return 'Enter the remote service base URL (http:// or https://).';
    // The rest as the backend will check it: the contract's batches:create schema.
    const checked = checkRequest('batches:create', { list: { text: this.text, format: this.format }, options: this.options() });
    return checked.ok ? null : checked.error.message;
  });

  constructor(private readonly transport: TransportSource = liveTransport) {}

  /** Takes a file's text (opened or dropped); `.csv` files are read by their `url` column. */
  loadFile(name: string, text: string): void {
    this.fileName = name;
    if (text.length > HELD_LIST_CHARS) this.#hold(text, 'file');
    else {
      this.text = text;
      void this.countNow();
    }
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
    await this.countNow();
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
    this.clear();
    this.name = '';
    this.report = null;
    this.error = null;
  }
}

export const newBatchState = new NewBatchState();
