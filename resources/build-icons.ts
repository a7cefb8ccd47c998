// `npm run icons:build`: renders resources/icon.svg into every size the app and its packagers use.
//   resources/icons/<n>x<n>.png  Linux (hicolor sizes; electron-builder reads this folder)
//   resources/icon.png           the window icon (512 px)
//   resources/icon.ico           Windows (16–256 px inside)
//   resources/icon.icns          macOS (16–1024 px inside)
//   resources/favicon/favicon.png the web-mode favicon (copied into out/renderer by the build)
// Deterministic: the same SVG gives the same files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import png2icons from 'png2icons';
import sharp from 'sharp';

const dir = fileURLToPath(new URL('.', import.meta.url));
const svg = join(dir, 'icon.svg');
/** Linux icon theme sizes, px. */
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

const render = (size: number): Promise<Buffer> =>
  sharp(svg, { density: Math.max(72, (72 * size) / 1024) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9, adaptiveFiltering: false })
    .toBuffer();

mkdirSync(join(dir, 'icons'), { recursive: true });
mkdirSync(join(dir, 'favicon'), { recursive: true });
for (const size of LINUX_SIZES) writeFileSync(join(dir, 'icons', `${size}x${size}.png`), await render(size));
writeFileSync(join(dir, 'icon.png'), await render(512));
writeFileSync(join(dir, 'favicon', 'favicon.png'), await render(64));
const master = await render(1024);
const ico = png2icons.createICO(master, png2icons.BICUBIC2, 0, false, true);
const icns = png2icons.createICNS(master, png2icons.BICUBIC2, 0);
if (!ico || !icns) throw new Error('png2icons could not encode the icon');
writeFileSync(join(dir, 'icon.ico'), ico);
writeFileSync(join(dir, 'icon.icns'), icns);
console.log(`icons written to ${dir}`);
