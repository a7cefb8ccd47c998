/** The drawing vocabulary: nearest Open Clip Art reference drawings by classifier features, and their labels. */
export { DRAWING_KNN, drawingVotes, projectFeatures, type DrawingVote } from './knn';
export { DRAWING_TABLE, type DrawingLabel, type DrawingTable } from './table';
