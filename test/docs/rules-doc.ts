// Renders the rule tables of src-main/analysis/rules into docs/analysis.md, between marker comments
// `<!-- rules:NAME -->` … `<!-- /rules:NAME -->`. Written by `npm run docs:rules`; a test
// (test/main/analysis/rules/rules-doc.test.ts) fails when the committed doc differs from the rendering.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BANDS, TESTS, type Band, type NamedTest } from '../../src-main/analysis/rules/bands';
import * as caption from '../../src-main/analysis/rules/caption';
import { COLOUR_SCENES, MIN_CATEGORY_SCORE, OTHERS_FALLBACK_SCORE, SCORE_STEPS } from '../../src-main/analysis/rules/categories';
import { CATEGORY_RULES } from '../../src-main/analysis/rules/category-rules';
import * as classes from '../../src-main/analysis/rules/classes';
import * as derive from '../../src-main/analysis/rules/derive';
import * as opinions from '../../src-main/analysis/rules/opinions';
import { LOCAL_INPUTS } from '../../src-main/analysis/rules/bands';
import { QUANTITIES } from '../../src-main/analysis/rules/quantities';
import { conditionText, productText, TERMS, type Condition, type Factor, type Product } from '../../src-main/analysis/rules/score';
import {
  DESCRIPTION_TAG_CONFIDENCE,
  FACE_TAG_WEIGHTS,
  GROUP_TAG,
  HYPERNYM_FACTOR,
  HYPERNYM_TAGS,
  MIN_TAG_CONFIDENCE,
  TAG_RULES,
} from '../../src-main/analysis/rules/tags';
import { repoRoot } from '../helpers/paths';

/** docs/analysis.md, the page the tables are rendered into. */
export const ANALYSIS_DOC = join(repoRoot, 'docs', 'analysis.md');
const RULES_DIR = join(repoRoot, 'src-main', 'analysis', 'rules');
/** Rule files whose code (not tables) names bands and tests; the "used by" columns list them. */
const CODE_USERS = ['derive.ts', 'opinions.ts', 'caption.ts'] as const;

const table = (head: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const code = (s: string): string => `\`${s}\``;
const json = (v: unknown): string => code(JSON.stringify(v).replace(/"/g, '').replace(/,/g, ', ').replace(/:/g, ': '));

/** Every band, test and term name a product or condition mentions. */
function namesIn(p: Product | Condition, out: Set<string>): Set<string> {
  const visitCondition = (c: Condition): void => {
    if (typeof c === 'string') out.add(c);
    else for (const x of 'all' in c ? c.all : c.any) visitCondition(x);
  };
  const visit = (f: Factor): void => {
    if (typeof f === 'string') out.add(f);
    else if (typeof f === 'number') return;
    else if ('when' in f) visitCondition(f.when);
    else if ('first' in f) for (const [c] of f.first) visitCondition(c);
    else if ('term' in f) out.add(`term:${f.term}`);
    else for (const q of 'max' in f ? f.max : 'min' in f ? f.min : f.sum) q.forEach(visit);
  };
  if (Array.isArray(p)) (p as Product).forEach(visit);
  else visitCondition(p as Condition);
  return out;
}

/** Who uses each band or test: rule names from the tables, file names from the code. */
export function usage(): Map<string, string[]> {
  const users = new Map<string, string[]>();
  const add = (name: string, user: string): void => {
    const list = users.get(name) ?? [];
    if (!list.includes(user)) list.push(user);
    users.set(name, list);
  };
  for (const [term, p] of Object.entries(TERMS)) for (const n of namesIn(p, new Set())) add(n, `term ${term}`);
  for (const r of CATEGORY_RULES) for (const n of namesIn(r.score, new Set())) add(n, r.name);
  for (const r of TAG_RULES) for (const n of namesIn(r.score, new Set())) add(n, `tag ${r.tag}`);
  for (const file of CODE_USERS) {
    const text = readFileSync(join(RULES_DIR, file), 'utf8');
    for (const name of [...Object.keys(BANDS), ...Object.keys(TESTS)]) if (text.includes(`'${name}'`)) add(name, file);
  }
  return users;
}

function rangeText(t: NamedTest): string {
  if ('check' in t) return t.what;
  if ('colour' in t)
    return t.colour === 'dominant' ? `dominant colours include ${t.in.join(' and ')}` : `${t.colour} ∈ {${t.in.join(', ')}}`;
  const parts: string[] = [];
  if (t.min !== undefined && t.min === t.max) return `${t.of} = ${t.min}`;
  if (t.above !== undefined) parts.push(`${t.of} > ${t.above}`);
  if (t.min !== undefined) parts.push(`${t.of} ≥ ${t.min}`);
  if (t.below !== undefined) parts.push(`${t.of} < ${t.below}`);
  if (t.max !== undefined) parts.push(`${t.of} ≤ ${t.max}`);
  return parts.join(' and ');
}

const SECTIONS: Record<string, () => string> = {
  quantities: () =>
    table(
      ['quantity', 'what'],
      [
        ...Object.entries(QUANTITIES).map(([n, q]) => [code(n), q.what]),
        ...Object.entries(LOCAL_INPUTS).map(([n, w]) => [code(n), `${w} (derive.ts only)`]),
      ],
    ),
  bands: () => {
    const users = usage();
    return table(
      ['band', 'ramp (0 → 1)', 'used by', 'why'],
      Object.entries(BANDS).map(([n, b]: [string, Band]) => [
        code(n),
        `${b.of} ${b.from} → ${b.to}`,
        (users.get(n) ?? ['—']).join(', '),
        b.why,
      ]),
    );
  },
  tests: () => {
    const users = usage();
    return table(
      ['test', 'holds when', 'used by', 'why'],
      Object.entries(TESTS).map(([n, t]: [string, NamedTest]) => [code(n), rangeText(t), (users.get(n) ?? ['—']).join(', '), t.why]),
    );
  },
  categories: () =>
    [
      `Reported: score ≥ ${MIN_CATEGORY_SCORE}, in 1/${SCORE_STEPS} steps; \`others_\` at ≥ ${OTHERS_FALLBACK_SCORE} when nothing qualifies. ` +
        `Scaled by 1 − frameFill (colour-only scenes): ${[...COLOUR_SCENES].map(code).join(', ')}.`,
      '',
      table(
        ['term', 'score'],
        Object.entries(TERMS).map(([n, p]) => [code(n), productText(p)]),
      ),
      '',
      table(
        ['category', 'score (product, left to right)'],
        CATEGORY_RULES.map((r) => [code(r.name), productText(r.score)]),
      ),
    ].join('\n'),
  tags: () =>
    [
      `Reported from ${MIN_TAG_CONFIDENCE}; \`description.tags\` from ${DESCRIPTION_TAG_CONFIDENCE}. ` +
        `${HYPERNYM_TAGS.map((h) => code(h.tag)).join(', ')} at ${HYPERNYM_FACTOR} × the best detected member; per face: ` +
        `\`human face\` = face confidence, \`child\` × ${FACE_TAG_WEIGHTS.child} (age < ${derive.AGE_YEARS.child}), ` +
        `\`man\`/\`woman\` × gender confidence (age ≥ ${derive.AGE_YEARS.adult}), \`smiling\` × ${FACE_TAG_WEIGHTS.smiling}, ` +
        `\`glasses\` × ${FACE_TAG_WEIGHTS.glasses}; \`group\` (≥ ${GROUP_TAG.minPeople} people) = ${GROUP_TAG.base} + ` +
        `${GROUP_TAG.perPerson} × min(people, ${GROUP_TAG.upTo}).`,
      '',
      table(
        ['tag', 'confidence (product)'],
        TAG_RULES.map((r) => [code(r.tag), productText(r.score)]),
      ),
    ].join('\n'),
  calibration: () =>
    [
      table(
        ['raw score', 'floor', 'present', 'sure', 'above sure'],
        [
          [
            'calibrated',
            classes.CALIBRATED.floor,
            classes.CALIBRATED.present,
            classes.CALIBRATED.sure,
            `+ slope × (raw − sure), ≤ ${classes.CALIBRATED.ceiling}`,
          ],
          [
            'CenterNet peak',
            derive.OBJECT_CALIBRATION.floor,
            derive.OBJECT_CALIBRATION.present,
            derive.OBJECT_CALIBRATION.sure,
            `slope ${derive.OBJECT_CALIBRATION.slopeAboveSure}`,
          ],
          [
            'ImageNet summed probability',
            classes.CLASS_CALIBRATION.floor,
            classes.CLASS_CALIBRATION.present,
            classes.CLASS_CALIBRATION.sure,
            `slope ${classes.CLASS_CALIBRATION.slopeAboveSure}`,
          ],
        ],
      ),
      '',
      table(
        ['constant', 'value', 'file'],
        [
          ['DRAWING_SCORE_SHIFT (raw-score handicap on drawings)', derive.DRAWING_SCORE_SHIFT, 'derive.ts'],
          ['CLASS_DRAWING_GATE', json(classes.CLASS_DRAWING_GATE), 'classes.ts'],
          ['SPECIFIC_NAME_FACTOR / GENERAL_TAG_FACTOR', `${classes.SPECIFIC_NAME_FACTOR} / ${classes.GENERAL_TAG_FACTOR}`, 'classes.ts'],
          ['KIND_OVER_THING (caption names the kind)', classes.KIND_OVER_THING, 'classes.ts'],
          ['KIND_OVER_MEMBER (an unsure image named by a kind several classes share)', classes.KIND_OVER_MEMBER, 'classes.ts'],
          ['REGION_CONF (segmented regions as a third opinion)', json(opinions.REGION_CONF), 'opinions.ts'],
          ['CLASSIFIER_VETO (a sure animal caps the animals it contradicts)', json(opinions.CLASSIFIER_VETO), 'opinions.ts'],
          ['PERSON_LOOKALIKE_TAGS (animals it may veto a faceless person for)', json(opinions.PERSON_LOOKALIKE_TAGS), 'opinions.ts'],
        ],
      ),
    ].join('\n'),
  derived: () =>
    table(
      ['constant', 'value'],
      [
        ['AGE_YEARS', json(derive.AGE_YEARS)],
        ['FACE_PERSON_CONF (person confidence from faces: base + span × best face)', json(derive.FACE_PERSON_CONF)],
        ['PERSON_BOX (extra people from person boxes)', json(derive.PERSON_BOX)],
        ['DRAWING_SCORE', json(derive.DRAWING_SCORE)],
        ['NIGHT_WITHOUT_SKY_OR_LIGHTS', derive.NIGHT_WITHOUT_SKY_OR_LIGHTS],
        ['TEXT_WEIGHT', json(derive.TEXT_WEIGHT)],
        ['GREY_SKY_WEIGHT (bright-grey sky in the effective sky)', json(derive.GREY_SKY_WEIGHT)],
        ['INDOOR_NATURAL_PENALTY', derive.INDOOR_NATURAL_PENALTY],
      ],
    ),
  caption: () =>
    [
      table(
        ['scene phrase (first match)', 'from (≥ present)', 'unless', 'confidence'],
        caption.SCENE_PHRASES.map((p) => [
          `"${p.text}"${p.refined ? ` ("${p.refined.text}" when ${JSON.stringify(p.refined.from).replace(/[{}"]/g, '')} ≥ present)` : ''}`,
          JSON.stringify(p.from).replace(/[{}"]/g, ''),
          p.unless ? conditionText(p.unless) : '—',
          p.conf ?? 'the source',
        ]),
      ),
      '',
      table(
        ['setting (first match)', 'when', 'confidence'],
        caption.SETTINGS.map((s) => [`"${s.text}"`, conditionText(s.when), code(s.conf)]),
      ),
      '',
      table(
        ['constant', 'value'],
        [
          ['CLASS_SUBJECT_CONFIDENCE (classifier names the subject)', classes.CLASS_SUBJECT_CONFIDENCE],
          ['CONTEXT_CONF (seat or companion detected)', caption.CONTEXT_CONF],
          ['COMPANION_MIN_SHARE', caption.COMPANION_MIN_SHARE],
          ['SUPPORT_SLACK (rests on: bottom centre in the box, extended)', caption.SUPPORT_SLACK],
          ['GENDER_WORD_CONF', caption.GENDER_WORD_CONF],
          ['SMILING_MAJORITY', caption.SMILING_MAJORITY],
          ['PEOPLE_CONF', json(caption.PEOPLE_CONF)],
          ['SKY_VIEW_CONF', caption.SKY_VIEW_CONF],
          ['SETTING_SCENE_CONF ("an outdoor scene", "an indoor scene")', caption.SETTING_SCENE_CONF],
          ['SETTING_CONF (subject × (base + span × setting))', json(caption.SETTING_CONF)],
          ['FALLBACK_CONF', json(caption.FALLBACK_CONF)],
          ['CAPTION_CONF (clamp, rounding)', json(caption.CAPTION_CONF)],
        ],
      ),
    ].join('\n'),
};

/** The doc with every `<!-- rules:NAME -->` block re-rendered; throws on a missing or unknown block. */
export function renderRulesDoc(doc: string): string {
  let out = doc;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const start = `<!-- rules:${name} -->`;
    const end = `<!-- /rules:${name} -->`;
    const i = out.indexOf(start);
    const j = out.indexOf(end);
    if (i < 0 || j < i) throw new Error(`docs/analysis.md: block ${start} … ${end} not found`);
    out = `${out.slice(0, i + start.length)}\n${render()}\n${out.slice(j)}`;
  }
  const unknown = [...out.matchAll(/<!-- rules:([\w-]+) -->/g)].map((m) => m[1]!).filter((n) => !(n in SECTIONS));
  if (unknown.length) throw new Error(`docs/analysis.md: unknown generated blocks ${unknown.join(', ')}`);
  return out;
}
