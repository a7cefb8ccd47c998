// Counts in messages people read: the CLI printed "Batch 3: 1 items from 1 lines (0 duplicates collapsed …)".
import { describe, expect, it } from 'vitest';
import { counted } from '../../../src-main/shared';

describe('counted', () => {
  it('puts the noun in the singular for exactly one, the plural otherwise', () => {
    expect([0, 1, 2, 1000].map((n) => counted(n, 'item'))).toEqual(['0 items', '1 item', '2 items', '1000 items']);
  });

  it('takes an irregular plural', () => {
    expect(counted(1, 'item was', 'items were')).toBe('1 item was');
    expect(counted(3, 'item was', 'items were')).toBe('3 items were');
  });
});
