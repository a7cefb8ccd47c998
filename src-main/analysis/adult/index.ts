/** Adult/racy scoring from the nsfwjs classifier (also the source of the "drawing" probability). */
export {
  NSFW_MODEL_ID,
  NSFW_CLASSES,
  ADULT_THRESHOLDS,
  nsfwPreprocess,
  nsfwProbabilities,
  adultFromProbabilities,
  type NsfwClass,
  type NsfwProbabilities,
} from './nsfw';
