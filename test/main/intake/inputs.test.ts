import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadImage, intakeOptions, intakeErrorKind } from '../../../src-main/intake';
import { fixture, fixturesDir } from '../../helpers/paths';
import { expectAppError, testOptions } from './support';

describe('input parsing', () => {
  it.each([
    ['ftp:', 'ftp://example.com/cat.jpg'],
    ['data:', 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='],
    ['javascript:', 'javascript:alert(1)'],
    ['gopher:', 'gopher://example.com/1'],
  ])('refuses the %s scheme', async (scheme, input) => {
    for (const mode of ['api', 'desktop'] as const) {
      const err = await expectAppError(loadImage(input, testOptions(mode)), 'unsupported-scheme');
      expect(err.details).toMatchObject({ scheme: scheme.slice(0, -1) });
      expect(err.message).toMatch(scheme === 'data:' ? /inline \(base64\) images are not accepted/ : /only http: and https:/);
    }
  });

  it('never echoes a data: URL payload', async () => {
    const err = await expectAppError(loadImage(`data:image/png;base64,${'A'.repeat(10_000)}`, testOptions('api')), 'unsupported-scheme');
    expect(err.message).not.toContain('AAAA');
    expect(err.message.length).toBeLessThan(200);
  });

  it('refuses credentials in the URL without repeating them', async () => {
    const err = await expectAppError(loadImage('https://alice:s3cret@images.example/cat.jpg', testOptions('api')), 'invalid-image-url');
    expect(err.message).toContain('images.example');
    expect(err.message).not.toContain('s3cret');
    expect(err.message).not.toContain('alice');
    await expectAppError(loadImage('https://token@images.example/cat.jpg', testOptions('api')), 'invalid-image-url');
  });

  it.each(['http://', 'https://exa mple.com/cat.jpg', 'http://[::1/cat.jpg', 'https://:80/x.jpg'])(
    'refuses the malformed URL %j',
    async (input) => {
      const err = await expectAppError(loadImage(input, testOptions('api')), 'invalid-image-url');
      expect(err.message).toMatch(/not a valid image URL/);
    },
  );

  it('refuses an empty input', async () => {
    await expectAppError(loadImage('   ', testOptions('desktop')), 'invalid-image-url');
  });

  it('in the API, a bare path is not a URL and file: is refused', async () => {
    await expectAppError(loadImage(fixture('cat_chelsea.jpg'), testOptions('api')), 'invalid-image-url');
    await expectAppError(loadImage('cat_chelsea.jpg', testOptions('api')), 'invalid-image-url');
    const err = await expectAppError(loadImage(pathToFileURL(fixture('cat_chelsea.jpg')).href, testOptions('api')), 'unsupported-scheme');
    expect(err.message).toContain('local files cannot be read here');
  });

  it('the API mode cannot be talked into reading files', () => {
    expect(intakeOptions('api', { allowLocalFiles: true }).allowLocalFiles).toBe(false);
    expect(intakeOptions('api').blockPrivateNetworks).toBe(true);
    expect(intakeOptions('desktop').blockPrivateNetworks).toBe(false);
  });
});

describe('local files (desktop and CLI)', () => {
  it('reports a missing file as file-not-found, naming it', async () => {
    const missing = join(fixturesDir, 'no-such-image.jpg');
    const err = await expectAppError(loadImage(missing, testOptions()), 'file-not-found');
    expect(err.message).toContain(missing);
    await expectAppError(loadImage(pathToFileURL(missing).href, testOptions()), 'file-not-found');
  });

  it('reports a folder as file-not-found', async () => {
    await expectAppError(loadImage(fixturesDir, testOptions()), 'file-not-found');
  });

  it('checks local files by content and size too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-intake-'));
    const renamed = join(dir, 'actually-png.jpg');
    writeFileSync(renamed, readFileSync(fixture('present_clipart.png')));
    expect((await loadImage(renamed, testOptions())).metadata).toEqual({ width: 128, height: 128, format: 'Png' });
    const html = join(dir, 'page.png');
    writeFileSync(html, '<html><body>hi</body></html>');
    await expectAppError(loadImage(html, testOptions()), 'invalid-image-format');
    const err = await expectAppError(
      loadImage(fixture('rocket_launchpad.jpg'), testOptions('desktop', { maxBytes: 10_000 })),
      'image-too-large',
    );
    expect(err.details).toMatchObject({ limit: 10_000 });
  });

  it('resolves relative paths against the working directory', async () => {
    const img = await loadImage(relative(process.cwd(), fixture('cat_chelsea.jpg')), testOptions());
    expect(img.fileName).toBe('cat_chelsea.jpg');
  });
});

describe('intakeErrorKind', () => {
  it('maps content problems to format and reachability problems to url', () => {
    expect(intakeErrorKind('invalid-image-format')).toBe('format');
    expect(intakeErrorKind('image-too-small')).toBe('format');
    expect(intakeErrorKind('image-dimensions-exceeded')).toBe('format');
    expect(intakeErrorKind('image-too-large')).toBe('format');
    expect(intakeErrorKind('decode-failed')).toBe('format');
    for (const code of [
      'invalid-image-url',
      'unsupported-scheme',
      'image-fetch-failed',
      'image-timeout',
      'blocked-address',
      'file-not-found',
    ] as const) {
      expect(intakeErrorKind(code)).toBe('url');
    }
    expect(intakeErrorKind('cancelled')).toBeUndefined();
    expect(intakeErrorKind('internal')).toBeUndefined();
  });
});
