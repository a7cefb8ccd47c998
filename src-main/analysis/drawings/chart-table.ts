import table from '../../../models/drawings/chart-references.json';
import type { ChartTable } from './charts';

/** The committed chart references (`npx tsx tooling/drawings/charts-table.ts`). */
export const CHART_TABLE = table as ChartTable;
