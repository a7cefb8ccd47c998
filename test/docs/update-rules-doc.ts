// `npm run docs:rules`: re-renders the generated rule tables in docs/analysis.md (test/docs/rules-doc.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { ANALYSIS_DOC, renderRulesDoc } from './rules-doc';

const before = readFileSync(ANALYSIS_DOC, 'utf8');
const after = renderRulesDoc(before);
if (after !== before) writeFileSync(ANALYSIS_DOC, after);
console.log(after === before ? 'docs/analysis.md: rule tables up to date' : 'docs/analysis.md: rule tables rewritten');
