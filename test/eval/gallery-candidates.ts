// Candidate person-descriptor recipes compared by `npm run eval:gallery -- --descriptors a,b,…`
// (docs/galleries.md "People"). Value-range and channel-order variants of a model run through a
// runner that re-maps the manifest's input before the session: the model id `<id>~<variant>`.
import type { FaceDescriptorSpec } from '../../src-main/analysis/gallery/index';
import { warpTarget, type ModelRunner, type TensorMap } from '../../src-main/inference';

/** How a variant re-maps the manifest's input: pixel (0..255) → value, optional BGR order. */
interface InputVariant {
  scale: number;
  offset: number;
  bgr: boolean;
}

const VARIANTS: Record<string, InputVariant> = {
  'm1..1': { scale: 1 / 127.5, offset: -1, bgr: false },
  '0..1': { scale: 1 / 255, offset: 0, bgr: false },
  '0..255': { scale: 1, offset: 0, bgr: false },
  'bgr-m1..1': { scale: 1 / 127.5, offset: -1, bgr: true },
  'bgr-0..255': { scale: 1, offset: 0, bgr: true },
};

const spec = (
  name: string,
  modelId: string,
  output: string,
  dim: number,
  crop: FaceDescriptorSpec['crop'],
  flip: boolean,
): [string, FaceDescriptorSpec] => [name, { kind: 'person', modelId, output, dim, method: name, crop, flip }];

export const CANDIDATES: Record<string, FaceDescriptorSpec> = Object.fromEntries([
  spec('faceres', 'faceres', 'descriptor', 1024, 'upright-1.5x', false),
  spec('faceres-flip', 'faceres', 'descriptor', 1024, 'upright-1.5x', true),
  spec('mobilefacenet', 'mobilefacenet', 'embedding', 192, 'arcface-5pt', false),
  spec('mobilefacenet-flip', 'mobilefacenet', 'embedding', 192, 'arcface-5pt', true),
  spec('mobilefacenet-0..1', 'mobilefacenet~0..1', 'embedding', 192, 'arcface-5pt', false),
  spec('mobilefacenet-0..255', 'mobilefacenet~0..255', 'embedding', 192, 'arcface-5pt', false),
  spec('mobilefacenet-bgr', 'mobilefacenet~bgr-m1..1', 'embedding', 192, 'arcface-5pt', false),
  spec('mobileface', 'mobileface', 'embedding', 256, 'arcface-5pt', false),
  spec('mobileface-flip', 'mobileface', 'embedding', 256, 'arcface-5pt', true),
  spec('mobileface-bgr', 'mobileface~bgr-0..255', 'embedding', 256, 'arcface-5pt', false),
  spec('mobileface-m1..1', 'mobileface~m1..1', 'embedding', 256, 'arcface-5pt', false),
]);

/** `runner` plus the `<id>~<variant>` ids: the manifest's window input re-mapped per the variant. */
export function variantRunner(runner: ModelRunner): ModelRunner {
  const split = (id: string): [string, InputVariant | undefined] => {
    const [base, v] = id.split('~') as [string, string | undefined];
    return [base, v ? VARIANTS[v] : undefined];
  };
  return {
    spec: (id) => runner.spec(split(id)[0]),
    async run(id, feeds, signal) {
      const [base, v] = split(id);
      if (!v) return runner.run(id, feeds, signal);
      const pre = warpTarget(runner.spec(base).inputs[0]!.preprocess!);
      const mapped: TensorMap = {};
      for (const [name, t] of Object.entries(feeds)) {
        const d = new Float32Array(t.data.length);
        for (let i = 0; i < d.length; i += 3)
          for (let c = 0; c < 3; c++) {
            const pixel = (t.data[i + (v.bgr ? 2 - c : c)]! - pre.offset) / pre.scale;
            d[i + c] = pixel * v.scale + v.offset;
          }
        mapped[name] = { data: d, dims: t.dims };
      }
      return runner.run(base, mapped, signal);
    },
  };
}
