import labels from '../../../models/labels/pascal-voc.json';
import type { CocoLabel } from '../objects/coco';

/** PASCAL VOC class names in DeepLab's output order (`labels/pascal-voc.json`; 0 = background). */
export const VOC21 = labels as readonly string[];

/** The COCO label of each VOC class (all 20 VOC things are COCO classes too), by VOC index. */
const COCO_OF_VOC: Readonly<Record<string, CocoLabel>> = {
  aeroplane: 'airplane',
  bicycle: 'bicycle',
  bird: 'bird',
  boat: 'boat',
  bottle: 'bottle',
  bus: 'bus',
  car: 'car',
  cat: 'cat',
  chair: 'chair',
  cow: 'cow',
  diningtable: 'dining table',
  dog: 'dog',
  horse: 'horse',
  motorbike: 'motorcycle',
  person: 'person',
  pottedplant: 'potted plant',
  sheep: 'sheep',
  sofa: 'couch',
  train: 'train',
  tvmonitor: 'tv',
};

/** The COCO label of VOC class `index`, undefined for the background. */
export function cocoOfVoc(index: number): CocoLabel | undefined {
  const name = VOC21[index];
  return name === undefined ? undefined : COCO_OF_VOC[name];
}

/** The COCO labels DeepLab can segment (the VOC things). */
export const SEGMENTABLE: ReadonlySet<CocoLabel> = new Set(Object.values(COCO_OF_VOC));

/**
 * ImageNet display words of the VOC things and their COCO labels (the classifier's way to name
 * them: "couch" for a studio couch, "television", "monitor").
 */
export const COCO_OF_VOC_WORD: ReadonlyMap<string, CocoLabel> = new Map<string, CocoLabel>([
  ...Object.values(COCO_OF_VOC)
    .filter((l) => l !== 'person')
    .map((l) => [l, l] as const),
  ['table', 'dining table'],
  ['television', 'tv'],
  ['monitor', 'tv'],
]);
