// The analyze service on the real models, reduced to what the rule tests read: the caption, the
// tags by name, the faces and the category names of an image file.
import type { AnalyzeData, VisualFeature } from '../../../../src-main/shared/spec';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { openFaceStack } from '../faces/fixture-eval';

export interface Described {
  caption: string;
  tags: Map<string, number>;
  faces: NonNullable<AnalyzeData['faces']>;
  categories: string[];
}

/** The features `described` asks for unless told. */
const DESCRIBED_FEATURES: VisualFeature[] = ['Tags', 'Description', 'Faces'];

/**
 * Opens the real model stack; `described(file)` analyzes with Tags, Description and Faces (or the
 * `features` given: a caption or tags not asked for come back empty).
 */
export function openDescriber(): { described(file: string, features?: VisualFeature[]): Promise<Described>; close(): Promise<void> } {
  const stack = openFaceStack(2);
  const service = createAnalyzeService({ runModel: stack.engine, faceRunner: stack.runner, loader: stack.loader });
  return {
    async described(file, features = DESCRIBED_FEATURES) {
      const { data } = await service.analyze(file, { features });
      return {
        caption: data.description?.captions[0]?.text ?? '',
        tags: new Map((data.tags ?? []).map((t) => [t.name, t.confidence])),
        faces: data.faces ?? [],
        categories: (data.categories ?? []).map((c) => c.name),
      };
    },
    close: () => stack.close(),
  };
}
