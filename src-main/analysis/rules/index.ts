/** Rules from evidence to the Categories, Tags and Description features. */
export { CATEGORY_NAMES, MIN_CATEGORY_SCORE, categorize, scoreCategories, type CategoryName } from './categories';
export { CATEGORY_RULES, type CategoryRule } from './category-rules';
export { buildTags, labelWord, MIN_TAG_CONFIDENCE, DESCRIPTION_TAG_CONFIDENCE } from './tags';
export { buildCaption } from './caption';
export { BLANK_CAPTION_CONF, isBlank, withoutGroundlessThings } from './blank';
export { acceptedChart, CHART_RULE, type AcceptedChart, type ChartRule } from './charts';
export { CLIP_ART_TYPE, derive, objectConfidence, OBJECT_CALIBRATION, type Derived } from './derive';
export { ANIMAL_HEAD_AS_FACE, animalHeadsNotFaces, animalProbability, isUnsureCloseUpFace } from './heads';
