/** The photo-content network shared by adult scores, image type and place descriptors. */
export {
  CONTENT_NET_MODEL_ID,
  CONTENT_CLASSES,
  contentNetFeeds,
  contentProbabilities,
  runContentNet,
  type ContentClass,
  type ContentProbabilities,
} from './content-net';
