// `npm run bench -- list-preview`: how long the New batch preview's parser (previewUrlList, the
// import's own rules) takes in Node for a 100 000-line list, as text and as CSV, and how much of
// the CSV's time is csv-parse (given the text as a string, and as UTF-8 bytes as the preview does
// now). Median of 5 runs after one warm-up. The page no longer waits for it (a Web Worker counts
// long lists: test/e2e/paste-count.test.ts), but the counts appear only once it is done.
import { parse } from 'csv-parse/browser/esm/sync';
import { listCsvOptions } from '../../src-main/shared/list-layout';
import { previewUrlList } from '../../src-main/shared/list-preview';

const LINES = 100_000;
const urls = Array.from({ length: LINES }, (_, i) => `https://images.example.com/photos/2026/${i % 977}/picture-${i}.jpg`);
const text = urls.join('\n');
const csv = ['id,url,note', ...urls.map((u, i) => `${i},${u},"note ${i}"`)].join('\n');

function medianMs(run: () => unknown): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return Math.round(times.sort((a, b) => a - b)[2]!);
}

const rows = {
  'previewUrlList, text': medianMs(() => previewUrlList({ text, format: 'txt' })),
  'previewUrlList, CSV': medianMs(() => previewUrlList({ text: csv, format: 'csv' })),
  'csv-parse alone, string input': medianMs(() => parse(csv, listCsvOptions(','))),
  'csv-parse alone, UTF-8 bytes': medianMs(() => parse(new TextEncoder().encode(csv), { ...listCsvOptions(','), bom: false })),
};
console.log(`${LINES} lines (Node ${process.version}), median ms:`);
for (const [name, ms] of Object.entries(rows)) console.log(`  ${name.padEnd(32)} ${ms}`);
