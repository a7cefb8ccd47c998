import { describe, expect, it } from 'vitest';
import { imageName } from '../../../src-renderer/utils/format';

describe('imageName', () => {
  it('is the decoded last path segment of a URL, without query or fragment', () => {
    expect(imageName('https://example.com/a/photo%201.jpg?size=2#x')).toBe('photo 1.jpg');
    expect(imageName('file:///data/shots/cat.png')).toBe('cat.png');
    expect(imageName('https://example.com/gallery/')).toBe('gallery');
  });

  it('falls back to the host, or to the text itself', () => {
    expect(imageName('https://example.com/')).toBe('example.com');
    expect(imageName('not a url')).toBe('not a url');
    expect(imageName('https://example.com/bad%E0%A4%A.jpg')).toBe('bad%E0%A4%A.jpg');
  });
});
