/** The drawing vocabulary: nearest Open Clip Art reference drawings by classifier features, and their labels. */
export { DRAWING_KNN, drawingVotes, projectFeatures, type DrawingVote } from './knn';
export { DRAWING_TABLE, type DrawingLabel, type DrawingTable } from './table';
/** Reference charts in the same feature space: a chart is named by its nearest references. */
export { CHART_KIND_WORDS, chartVote, projectionId, type ChartEvidence, type ChartTable, type ChartVote } from './charts';
export { CHART_TABLE } from './chart-table';
