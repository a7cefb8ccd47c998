import table from '../../../models/drawings/openclipart-knn.json';

/** One label of the drawing vocabulary (a WordNet noun synset of a concrete thing). */
export interface DrawingLabel {
  /** The word shown ("gift", "light bulb"). */
  word: string;
  /** WordNet 3.1 synset names it stands for (space-separated: synsets shown by one word are one label). */
  synset: string;
  /** Vocabulary indices of its hypernyms in the vocabulary, nearest first (lion → big cat, animal). */
  parents: number[];
}

/**
 * The generated table models/drawings/openclipart-knn.json (`npx tsx tooling/drawings/table.ts`): the
 * reference part of Open Clip Art (public domain) as PCA-reduced classifier features, int8, with
 * each drawing's labels.
 */
export interface DrawingTable {
  source: string;
  /** Length of the classifier's pooled features. */
  features: number;
  /** Dimensions kept by the PCA. */
  dims: number;
  /** Mean feature vector (float32, base64), subtracted before the projection. */
  mean: string;
  /** Principal axes, `dims` rows of `features` int8 values (base64), row r scaled by axisScale[r]. */
  axes: string;
  axisScale: number[];
  /** Reference drawings: `dims` int8 values each (base64), unit length up to the int8 rounding. */
  vectors: string;
  /** Per reference drawing, its labels (vocabulary indices). */
  drawings: number[][];
  /**
   * Rows from this index on are line-art renderings of colour drawings (the same labels): only a
   * line drawing consults them. Absent: the table has none.
   */
  lineArtFrom?: number;
  vocabulary: DrawingLabel[];
}

/** The committed table. */
export const DRAWING_TABLE = table as DrawingTable;
