import { describe, expect, it } from 'vitest';
import { formatOf, previewUrlList } from '../../../src-renderer/utils/url-list';
import { formatEta, formatRate, percent } from '../../../src-renderer/utils/format';

describe('URL list preview', () => {
  it('counts read, valid, invalid and duplicate lines of a text list, skipping blanks and comments', () => {
    const text = [
      '# my list',
      'https://a.example/1.jpg',
      '',
      'http://b.example/2.png',
      'not a url',
      'ftp://c.example/3.jpg',
      'https://a.example/1.jpg',
      'https://user:pw@x.example/p.jpg',
    ].join('\n');
    expect(previewUrlList({ text, format: 'txt' })).toEqual({
      read: 6,
      valid: 2,
      invalid: 3,
      duplicates: 1,
      invalidSamples: ['not a url', 'ftp://c.example/3.jpg', 'https://user:pw@x.example/p.jpg'],
      problem: null,
    });
  });

  it('reads the url column of a CSV, with quoted fields', () => {
    const text = 'id,"url",note\n1,https://a.example/1.jpg,"x, y"\n2,"https://b.example/2.jpg",z\n3,,empty\n';
    expect(previewUrlList({ text, format: 'csv' })).toMatchObject({
      read: 3,
      valid: 2,
      invalid: 1,
      invalidSamples: ['(empty url cell, line 4)'],
    });
  });

  it('reads lists in the browser exactly as the import does (same shared parser)', () => {
    const semicolons = '# shop export\nid;url;note\n1;https://a.example/1.jpg;"two\nlines"\n2;;empty\n3;HTTPS://A.example/1.jpg;dup\n';
    expect(previewUrlList({ text: semicolons, format: 'csv' })).toEqual({
      read: 3,
      valid: 1,
      invalid: 1,
      duplicates: 1,
      invalidSamples: ['(empty url cell, line 5)'],
      problem: null,
    });
    expect(previewUrlList({ text: 'url,n\nhttps://a.example/1.jpg,"bad"x\n', format: 'csv' }).problem).toMatch(
      /^Line 2: malformed CSV quote/,
    );
    expect(previewUrlList({ text: 'url,URL\nhttps://a.example/1.jpg,x\n', format: 'csv' }).problem).toMatch(/2 "url" columns/);
  });

  it('says so when a CSV has no url column', () => {
    expect(previewUrlList({ text: 'a,b\n1,2', format: 'csv' }).problem).toMatch(/no "url" column/);
    expect(formatOf('list.CSV')).toBe('csv');
    expect(formatOf('list.txt')).toBe('txt');
  });
});

describe('formatting', () => {
  it('formats rates, ETAs and percentages for people', () => {
    expect(formatRate(12.4)).toBe('12 img/s');
    expect(formatRate(2.345)).toBe('2.3 img/s');
    expect(formatRate(0)).toBe('—');
    expect(formatEta(3725)).toBe('1 h 2 min');
    expect(formatEta(250)).toBe('4 min 10 s');
    expect(formatEta(null)).toBe('—');
    expect(percent(1, 3)).toBe(33);
    expect(percent(0, 0)).toBe(0);
  });
});
