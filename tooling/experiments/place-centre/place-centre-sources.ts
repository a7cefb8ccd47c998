/**
 * Copies the place-centre image population into the repository, downsized: the photographs and
 * artwork of two Debian wallpaper packages (not fixtures, not sources reserved for evaluation),
 * with each file's copyright and licence from the package's DEP-5 copyright file.
 * Needs `apt-get install lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 ukui-wallpapers`;
 * Usage: npx tsx tooling/experiments/place-centre/place-centre-sources.ts [out-dir]
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';

/** Where the copies go (not committed: the experiment's population failed, see docs/galleries.md). */
const out = process.argv[2] ?? join(tmpdir(), 'place-centre');
const PACKAGES = ['lomiri-wallpapers-16.04', 'lomiri-wallpapers-20.04', 'ukui-wallpapers'];
/** Longest side of the committed copies, px: the descriptor resizes to 224 px anyway. */
const MAX_SIDE = 448;
const JPEG_QUALITY = 85;

interface Stanza {
  files: string[];
  copyright: string;
  license: string;
}

/** DEP-5 stanzas: Files / Copyright (may continue on indented lines) / License (first line). */
function stanzas(text: string): Stanza[] {
  return text.split(/\n\s*\n/).flatMap((block) => {
    const field = (name: string): string | undefined => {
      const m = block.match(new RegExp(`^${name}:([^\\n]*(?:\\n[ \\t]+[^\\n]*)*)`, 'm'));
      return m?.[1]?.replace(/\n\s+/g, '; ').trim();
    };
    const files = field('Files');
    return files
      ? [{ files: files.split(/\s+/), copyright: field('Copyright') ?? '', license: (field('License') ?? '').split(';')[0]!.trim() }]
      : [];
  });
}

const glob = (pattern: string, file: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(file);

mkdirSync(out, { recursive: true });
const rows: string[] = [];
for (const pkg of PACKAGES) {
  const copyright = readFileSync(`/usr/share/doc/${pkg}/copyright`, 'utf8');
  const st = stanzas(copyright);
  const files = execFileSync('dpkg', ['-L', pkg], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(jpe?g|png)$/i.test(f) && existsSync(f));
  const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8' });
  for (const file of files) {
    // The last matching stanza wins (DEP-5); paths in the copyright file may carry a folder prefix.
    const match = st.filter((s) => s.files.some((p) => glob(p, basename(file)) || glob(basename(p), basename(file)))).pop();
    if (!match) throw new Error(`${pkg}: no copyright stanza for ${file}`);
    const name = `${pkg}--${basename(file).replace(/\.[a-z]+$/i, '')}.jpg`;
    await sharp(file)
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside' })
      .jpeg({ quality: JPEG_QUALITY })
      .toFile(join(out, name));
    rows.push(`| ${name} | ${pkg} ${version} | ${file} | ${match.copyright.replace(/\|/g, '/')} | ${match.license} |`);
  }
}
writeFileSync(
  join(out, 'SOURCES.md'),
  `# Place-centre images\n\nThe image population whose mean pooled descriptor centres place descriptors\n` +
    `(an experiment: tooling/experiments/place-centre/).\n` +
    `Downsized copies (longest side ${MAX_SIDE} px, JPEG q${JPEG_QUALITY}) of the wallpapers of Debian packages, written by\n` +
    `tooling/gallery/place-centre-sources.ts. Each keeps its author's licence; see the package's\n` +
    `/usr/share/doc/<package>/copyright for the full texts.\n\n| file | package | original path | copyright | licence |\n| --- | --- | --- | --- | --- |\n` +
    rows.join('\n') +
    '\n',
);
console.log(`wrote ${rows.length} images to ${out}`);
