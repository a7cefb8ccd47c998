/** Adult/racy scoring from the photo-content network's classes (`content-net/`). */
export { ADULT_THRESHOLDS, adultFromProbabilities } from './adult';
