import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BANDS, TESTS } from '../../../../src-main/analysis/rules/bands';
import { QUANTITIES } from '../../../../src-main/analysis/rules/quantities';
import { TERMS } from '../../../../src-main/analysis/rules/score';
import { ANALYSIS_DOC, renderRulesDoc, usage } from '../../../docs/rules-doc';

describe('docs/analysis.md rule tables', () => {
  it('match the rule tables in the code (run `npm run docs:rules` after changing a rule)', () => {
    const doc = readFileSync(ANALYSIS_DOC, 'utf8');
    expect(renderRulesDoc(doc)).toBe(doc);
  });

  it('fail the comparison when a generated block is edited by hand', () => {
    const doc = renderRulesDoc(readFileSync(ANALYSIS_DOC, 'utf8'));
    const stale = doc.replace(/(`water\.body` \| water )0\.15/, '$10.2');
    expect(stale).not.toBe(doc);
    expect(renderRulesDoc(stale)).toBe(doc);
  });
});

describe('rule names', () => {
  it('are unique across quantities, bands, tests and terms, so a name in a table means one thing', () => {
    const names = [...Object.keys(QUANTITIES), ...Object.keys(BANDS), ...Object.keys(TESTS), ...Object.keys(TERMS)];
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('every band and test is used by a rule table or by the rule code', () => {
    const used = usage();
    expect([...Object.keys(BANDS), ...Object.keys(TESTS)].filter((n) => !used.has(n))).toEqual([]);
  });
});
