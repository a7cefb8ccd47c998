import table from '../../../models/labels/imagenet-hierarchy.json';
import type { CategoryName } from '../rules/categories';

/** One ImageNet class in picscan's words (generated from WordNet by `npm run models:labels`). */
export interface ImagenetClass {
  /** Specific name ("golden retriever", "Granny Smith"). */
  name: string;
  /** Everyday word when it differs from the name ("dog", "apple"). */
  display?: string;
  /** General tags from the hypernym chain, nearest first ("fruit", "food"; "dog", "mammal", "animal"). */
  tags: string[];
  /** Place in the 86-category taxonomy, when a rule on the chain gives one. */
  category?: CategoryName;
}

/** The generated table `models/labels/imagenet-hierarchy.json`: model output index → class. */
export interface ImagenetHierarchy {
  source: string;
  /** Index of the "background" output (Coral's MobileNet has 1 001 outputs, 0 = background). */
  background: number;
  classes: ImagenetClass[];
}

/** The committed table, indexed like the classifier's outputs. */
export const IMAGENET_HIERARCHY = table as ImagenetHierarchy;

/** The word a caption uses for a class: the display word, else the specific name. */
export function subjectWord(c: ImagenetClass): string {
  return c.display ?? c.name;
}
