import { describe, expect, it } from 'vitest';
import { HELD_LIST_CHARS, LIST_RECOUNT_CHARS, LIST_RECOUNT_DELAY_MS, NewBatchState } from '../../../src-renderer/state/new-batch.svelte';
import type { CreateBatchRequest } from '../../../src-main/shared';
import { fakeDeps, inProcessTransport } from '../helpers';

/** `n` lines: image URLs, every 100th a bad line. */
function urls(n: number, prefix = 'a'): string {
  return Array.from({ length: n }, (_, i) => (i % 100 === 99 ? `bad ${i}` : `https://${prefix}.example/${i}.jpg`)).join('\n');
}
/** Lines of a list just over HELD_LIST_CHARS (its lines are ≥ 23 characters and a newline). */
const LONG_LINES = Math.ceil(HELD_LIST_CHARS / 24);
const long = urls(LONG_LINES);

describe('NewBatchState', () => {
  it('counts the URLs before starting and says what blocks the start', () => {
    const s = new NewBatchState(() => inProcessTransport());
    expect(s.blocker).toMatch(/at least one valid/);
    s.text = 'https://a.example/1.jpg\nbad\n';
    expect(s.preview).toMatchObject({ read: 2, valid: 1, invalid: 1 });
    expect(s.blocker).toBeNull();
    s.features = [];
    expect(s.blocker).toMatch(/at least one feature/);
    s.operation = 'detect';
    expect(s.blocker).toBeNull();
    s.backend = 'remote';
    expect(s.blocker).toMatch(/remote service base URL/);
  });

  it('counts a long list once typing pauses, not at every keystroke, and always before a start', async () => {
    const s = new NewBatchState(() => inProcessTransport());
    const line = 'https://images.example/photos/2026/11/a-long-path/picture-number.jpg\n';
    const urls = Math.ceil(LIST_RECOUNT_CHARS / line.length) + 10;
    const long = line.repeat(urls);
    s.text = 'https://a.example/1.jpg';
    expect(s.preview?.valid).toBe(1);
    s.text = long; // pasted
    s.text = long + 'https://a.example/2.jpg\nbad'; // and typed on at once
    // Not counted yet (the keys come faster than the delay), and the older counts are not shown.
    expect(s.preview).toBeNull();
    expect(s.blocker).toBe('Counting the URLs…');
    await new Promise((r) => setTimeout(r, LIST_RECOUNT_DELAY_MS + 200));
    expect(s.preview).toMatchObject({ valid: 2, invalid: 1, duplicates: urls - 1 });
    expect(s.blocker).toBeNull();
    // A start right after a keystroke counts the list as it is.
    s.text = long + 'https://a.example/3.jpg';
    expect(s.blocker).toBe('Counting the URLs…');
    const report = await s.submit();
    expect(report?.batch.id).toBe(1);
    expect(s.preview?.valid).toBe(2);
  });

  it('drops the counts of a list that changed while it was counted', async () => {
    const s = new NewBatchState(() => inProcessTransport());
    const long = 'https://a.example/1.jpg\n'.repeat(LIST_RECOUNT_CHARS / 10);
    s.text = long;
    const counting = s.countNow();
    s.text = `${long}https://a.example/2.jpg`; // typed while the worker counts
    await counting;
    expect(s.preview).toBeNull(); // the first count is of an older list: never shown
    await s.countNow();
    expect(s.preview).toMatchObject({ valid: 2, duplicates: LIST_RECOUNT_CHARS / 10 - 1 });
    // A list cut back to a short one is counted at once; a long count still under way cannot replace it.
    s.text = long;
    const stale = s.countNow();
    s.text = 'https://a.example/3.jpg';
    await stale;
    expect(s.preview).toMatchObject({ read: 1, valid: 1 });
  });

  it('reads an opened CSV by its url column and names the batch after the file', () => {
    const s = new NewBatchState(() => inProcessTransport());
    s.loadFile('shop.csv', 'sku,url\n1,https://a.example/1.jpg\n');
    expect(s.format).toBe('csv');
    expect(s.name).toBe('shop');
    expect(s.preview?.valid).toBe(1);
  });

  it('counts a list as CSV or text by the file it came from, after a reset too', async () => {
    const s = new NewBatchState(() => inProcessTransport());
    const rows = 'sku,url\n' + '1,https://a.example/1.jpg\n'.repeat(LIST_RECOUNT_CHARS / 20);
    s.loadFile('shop.csv', rows);
    expect(s.preview).toBeNull();
    await s.countNow();
    expect(s.preview).toMatchObject({ read: LIST_RECOUNT_CHARS / 20, valid: 1 });
    s.reset();
    expect(s.preview).toMatchObject({ read: 0, valid: 0 });
    s.text = 'url\nhttps://a.example/1.jpg'; // pasted: text, one URL per line (as CSV: one record)
    expect(s.preview).toMatchObject({ read: 2, valid: 1, invalid: 1 });
  });

  it('creates the batch with the chosen options', async () => {
    const deps = fakeDeps();
    let sent: unknown;
    const create = deps.batches.create;
    deps.batches.create = async (req) => {
      sent = req;
      return create(req);
    };
    const s = new NewBatchState(() => inProcessTransport(deps));
    s.text = 'https://a.example/1.jpg';
    s.name = 'mine';
    s.operation = 'detect';
    const report = await s.submit();
    expect(report?.batch.id).toBe(1);
    expect(sent).toEqual({
      list: { text: 'https://a.example/1.jpg', format: 'txt' },
      options: { name: 'mine', operation: { kind: 'detect', minHeadScale: 0.015, selector: ['FRONTAL'] }, backend: { kind: 'local' } },
    });
  });

  it('keeps the form and explains a refusal', async () => {
    const deps = fakeDeps();
    deps.batches.create = async () => {
      const { AppError } = await import('../../../src-main/core');
      throw new AppError('invalid-parameter', 'A batch needs a name.');
    };
    const s = new NewBatchState(() => inProcessTransport(deps));
    s.text = 'https://a.example/1.jpg';
    expect(await s.submit()).toBeNull();
    expect(s.error).toBe('The batch was not created: A batch needs a name.');
    expect(s.text).toBe('https://a.example/1.jpg');
  });

  describe('a list too long for the textarea', () => {
    it('is over the threshold in these tests', () => expect(long.length).toBeGreaterThan(HELD_LIST_CHARS));

    it('is held when a paste makes it longer than HELD_LIST_CHARS, and the paste is then taken over', () => {
      const s = new NewBatchState(() => inProcessTransport());
      s.text = 'https://a.example/first.jpg\nhttps://a.example/last.jpg';
      // A paste that keeps the list at the threshold goes into the textarea as usual.
      const fits = 'x'.repeat(HELD_LIST_CHARS - s.text.length);
      expect(s.paste(fits, s.text.length, s.text.length)).toBe(false);
      expect(s.held).toBeNull();
      // One character more: held, with the paste put where the selection was (here replacing "first").
      const start = 'https://a.example/'.length;
      const pasted = 'y'.repeat(HELD_LIST_CHARS);
      expect(s.paste(pasted, start, start + 'first'.length)).toBe(true);
      expect(s.text).toBe(`https://a.example/${pasted}.jpg\nhttps://a.example/last.jpg`);
      expect(s.held).toMatchObject({ from: 'pasted', lines: 2, bytes: s.text.length });
      expect(s.held?.head[1]).toBe('https://a.example/last.jpg');
    });

    it('is counted at once, and its counts are never those of the list before it', async () => {
      const s = new NewBatchState(() => inProcessTransport());
      s.text = 'https://a.example/1.jpg';
      expect(s.paste(long, 0, s.text.length)).toBe(true);
      expect(s.held).toMatchObject({ from: 'pasted', lines: LONG_LINES, head: long.split('\n').slice(0, 10) });
      expect(s.preview).toBeNull();
      expect(s.blocker).toBe('Counting the URLs…');
      await s.countNow();
      const bad = Math.floor(LONG_LINES / 100);
      expect(s.preview).toMatchObject({ read: LONG_LINES, valid: LONG_LINES - bad, invalid: bad, duplicates: 0 });
      expect(s.blocker).toBeNull();
      // Another held list (a file opened meanwhile): the counts of the first one go.
      s.loadFile('other.txt', urls(LONG_LINES, 'b') + '\nhttps://b.example/0.jpg');
      expect(s.preview).toBeNull();
      await s.countNow();
      expect(s.preview).toMatchObject({ read: LONG_LINES + 1, duplicates: 1 });
    });

    it('is held when opened from a file over the threshold, and put in the textarea when not', async () => {
      const s = new NewBatchState(() => inProcessTransport());
      s.loadFile('short.txt', urls(10));
      expect(s.held).toBeNull();
      expect(s.text).toBe(urls(10));
      s.loadFile('shop.csv', `url\n${long}`);
      expect(s.held).toMatchObject({ from: 'file', lines: LONG_LINES + 1, head: ['url', ...long.split('\n').slice(0, 9)] });
      expect(s.fileName).toBe('shop.csv');
      expect(s.format).toBe('csv');
      expect(s.text).toBe(`url\n${long}`);
      s.loadFile('short.txt', urls(10)); // a short file replaces a held list
      expect(s.held).toBeNull();
      expect(s.text).toBe(urls(10));
    });

    it('is dropped by Clear, by a reset, and by typing (which never holds a list)', async () => {
      const s = new NewBatchState(() => inProcessTransport());
      s.name = 'mine';
      s.loadFile('shop.csv', `url\n${long}`);
      s.clear();
      expect([s.held, s.text, s.fileName, s.format, s.name]).toEqual([null, '', null, 'txt', 'mine']);
      expect(s.preview).toMatchObject({ read: 0, valid: 0 });
      s.paste(long, 0, 0);
      s.reset();
      expect([s.held, s.text, s.name]).toEqual([null, '', '']);
      expect(s.preview).toMatchObject({ read: 0 });
      s.paste(long, 0, 0);
      s.text = `${long}x`; // typed (or set by code): a list in the textarea, however long
      expect(s.held).toBeNull();
      expect(s.text).toBe(`${long}x`);
    });

    it('is sent whole when the batch starts', async () => {
      const deps = fakeDeps();
      let sent: CreateBatchRequest | undefined;
      const create = deps.batches.create;
      deps.batches.create = async (req) => {
        sent = req;
        return create(req);
      };
      const s = new NewBatchState(() => inProcessTransport(deps));
      s.paste(long, 0, 0);
      const report = await s.submit();
      expect(report?.batch.id).toBe(1);
      expect(sent?.list).toEqual({ text: long, format: 'txt' });
      s.loadFile('shop.csv', `url\n${long}`);
      expect(await s.submit()).not.toBeNull();
      expect(sent?.list).toEqual({ text: `url\n${long}`, format: 'csv' });
    });
  });
});
