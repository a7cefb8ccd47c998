import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/paths';

// resources/ holds the app icon in every form the desktop builds use (resources/build-icons.ts).
const res = (...p: string[]): string => join(repoRoot, 'resources', ...p);

describe('app icons in resources/', () => {
  it('Linux: square PNGs at the icon-theme sizes', async () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      const meta = await sharp(res('icons', `${size}x${size}.png`)).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', size, size, true]);
    }
  });

  it('Windows: an .ico with sizes from 16 to 256 px', () => {
    const ico = readFileSync(res('icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // reserved, type 1 = icon
    const count = ico.readUInt16LE(4);
    // Directory entries: width byte 0 means 256.
    const widths = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256);
    expect(Math.min(...widths)).toBe(16);
    expect(Math.max(...widths)).toBe(256);
  });

  it('macOS: an .icns whose length field matches the file', () => {
    const icns = readFileSync(res('icon.icns'));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
  });

  it('web mode: a favicon the renderer build copies beside index.html', async () => {
    const meta = await sharp(res('favicon', 'favicon.png')).metadata();
    expect(meta.format).toBe('png');
    expect(readFileSync(join(repoRoot, 'src-renderer', 'index.html'), 'utf8')).toContain('href="./favicon.png"');
  });
});
