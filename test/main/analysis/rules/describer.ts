// The analyze service on the real models, reduced to what the rule tests read: the caption, the
// tags by name and the faces of an image file.
import type { AnalyzeData } from '../../../../src-main/shared/spec';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { openFaceStack } from '../faces/fixture-eval';

export interface Described {
  caption: string;
  tags: Map<string, number>;
  faces: NonNullable<AnalyzeData['faces']>;
}

/** Opens the real model stack; `described(file)` analyzes with Tags, Description and Faces. */
export function openDescriber(): { described(file: string): Promise<Described>; close(): Promise<void> } {
  const stack = openFaceStack(2);
  const service = createAnalyzeService({ runModel: stack.engine, faceRunner: stack.runner, loader: stack.loader });
  return {
    async described(file) {
      const { data } = await service.analyze(file, { features: ['Tags', 'Description', 'Faces'] });
      return {
        caption: data.description!.captions[0]!.text,
        tags: new Map(data.tags!.map((t) => [t.name, t.confidence])),
        faces: data.faces!,
      };
    },
    close: () => stack.close(),
  };
}
