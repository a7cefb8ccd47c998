// A page of writing in dark mode (a code editor, a terminal, a dark web page) is a page of text,
// not a night scene: its smooth dark top passed for a night sky, and a dark-mode editor
// screenshot was tagged night, outdoor and sky (1.0 each) and filed under dark_ and outdoor_.
// Real models, through the analyze service, on pages drawn here as PNG files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-dark-page-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

const CODE = [
  "import sharp from 'sharp';",
  'export async function thumbnail(file: string): Promise<Buffer> {',
  '  const img = sharp(file).rotate();',
  '  const meta = await img.metadata();',
  "  if (!meta.width) throw new Error('no width');",
  "  return img.resize(256, 256, { fit: 'inside' }).png().toBuffer();",
  '}',
  'for (let i = 0; i < 10; i++) console.log(i);',
  'export const SIDE = { thumbnail: 256, preview: 1024 } as const;',
  'const queue = new PQueue({ concurrency: 2 });',
  'await queue.addAll(files.map((f) => () => thumbnail(f)));',
  '// the queue drains before the process exits',
];

const escaped = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A w×h page on `ground`, `lines` of monospace writing in `colours` from (x, y), rendered to PNG. */
async function page(name: string, w: number, h: number, ground: string, x: number, colours: string[], extra = ''): Promise<string> {
  const lines = CODE.map(
    (l, i) =>
      `<text x="${x}" y="${60 + i * 24}" font-size="15" font-family="monospace" fill="${colours[i % colours.length]}" xml:space="preserve">${escaped(l)}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="${ground}"/>${extra}${lines.join('')}</svg>`;
  const file = join(dir, `${name}.png`);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

const analysed = (file: string) => describer.described(file, ['Tags', 'Description', 'Categories', 'ImageType']);

describe('pages of writing in dark mode', () => {
  const pages: Array<[string, () => Promise<string>]> = [
    [
      'a code editor with a side bar',
      () =>
        page(
          'editor',
          1000,
          640,
          '#1e1e1e',
          250,
          ['#9cdcfe', '#dcdcaa', '#ce9178', '#d4d4d4'],
          '<rect x="0" y="0" width="220" height="640" fill="#252526"/>' +
            ['EXPLORER', 'src', '  main.ts', '  app.ts', 'test', 'package.json']
              .map(
                (t, i) =>
                  `<text x="12" y="${30 + i * 22}" font-size="13" font-family="sans-serif" fill="#cccccc" xml:space="preserve">${t}</text>`,
              )
              .join(''),
        ),
    ],
    ['a terminal, light grey on black', () => page('terminal', 800, 480, '#000000', 16, ['#c0c0c0'])],
  ];

  it.each(pages)('%s is a page of text, not a night scene outdoors', async (_, make) => {
    const r = await analysed(await make());
    expect(r.caption).toBe('a page of text');
    for (const tag of ['night', 'outdoor', 'sky']) expect(r.tags.get(tag) ?? 0).toBeLessThan(0.5);
    expect(r.categories).toContain('text_');
    expect(r.categories).not.toContain('dark_');
    expect(r.categories).not.toContain('outdoor_');
  });

  it('a photo at night keeps its night', async () => {
    const r = await analysed(fixture('rocket_launchpad.jpg'));
    expect(r.caption).toMatch(/at night$/);
    expect(r.tags.get('night') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
