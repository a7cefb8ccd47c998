/**
 * Loads and validates `models/manifest.json` into typed model specs. A bad entry fails fast with
 * an error naming the model id, so a broken install is caught at startup, not mid-batch.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../core';
import { DYNAMIC_BATCH } from './tensor';

/** Tensor dims, batch first; the batch may be -1 (`DYNAMIC_BATCH`: the graph takes any batch). */
const dims = z
  .array(z.number().int())
  .min(1)
  .refine((d) => d.every((v, i) => v > 0 || (i === 0 && v === DYNAMIC_BATCH)), {
    message: 'dims must be positive (the batch, first, may be -1: dynamic)',
  });

/** A number or one number per channel (RGB). */
const perChannel = z.union([z.number(), z.tuple([z.number(), z.number(), z.number()])]);

/**
 * How an image becomes the input tensor, as data (read by `preprocess.ts`):
 * - `size` [width, height] of the tensor in px;
 * - `resize`: `stretch` (whole image to `size`, aspect not kept), `letterbox` (aspect kept, the
 *   image at the top-left, `pad` elsewhere; TF Object Detection API's keep-aspect-ratio resizer)
 *   or `window` (the task chooses a square, possibly rotated, window of the image: a face);
 * - `interpolation`: `bilinear` is antialiased (libvips linear for whole images, area-averaging
 *   when shrinking; the crop warp averages up to 4×4 bilinear taps), `bilinear-align-corners` is
 *   TF.js `resizeBilinear(alignCorners = true)`, point-sampled (stretch only);
 * - `channels`: RGB, or `grey` (BT.601 luma 0.299 R + 0.587 G + 0.114 B; window only);
 * - values: `scale`/`offset` (value = pixel·scale + offset, pixel 0..255) or `mean`/`std`
 *   (value = (pixel/255 − mean)/std), one number or one per channel (one number for `window`);
 *   `pad` is the letterbox fill in pixel units;
 * - `trim` (letterbox only, fully convolutional graphs with free spatial dims): the frame is cut
 *   to the fitted image rounded up to a multiple of `trim` px on each side (`size` is the largest
 *   frame, and the fit is the one in `size`), so the padding costs no convolutions;
 * - `wideFrame` (stretch only, graphs with free spatial dims): an image wider or taller than
 *   `fromAspect`:1 is stretched to a frame with its own aspect (at most `maxAspect`:1) and about
 *   the pixel count of `size`, each side `step`·k + `offset` px (the sizes the graph takes), instead
 *   of being squeezed into `size`;
 * - `enlarge` (bilinear stretch only): `bicubic` enlarges an image smaller than `size` both ways
 *   with libvips' bicubic kernel instead (a 48 px thumbnail reaches the model sharper; for the
 *   classifier measured in docs/models.md, "Small images");
 * - `layout` and `dtype` repeat the input's (checked); a uint8 input gets the values rounded and
 *   clamped by the session (quantised models: scale 1, offset 0).
 */
const preprocessSchema = z
  .object({
    size: z.tuple([z.number().int().positive(), z.number().int().positive()]),
    resize: z.enum(['stretch', 'letterbox', 'window']),
    interpolation: z.enum(['bilinear', 'bilinear-align-corners']),
    channels: z.enum(['RGB', 'grey']),
    layout: z.enum(['NHWC', 'NCHW']),
    dtype: z.enum(['uint8', 'float32']),
    scale: perChannel.optional(),
    offset: perChannel.optional(),
    mean: perChannel.optional(),
    std: perChannel.optional(),
    pad: z.number().min(0).max(255).optional(),
    trim: z.number().int().positive().optional(),
    wideFrame: z
      .object({
        fromAspect: z.number().min(1),
        maxAspect: z.number().min(1),
        step: z.number().int().positive(),
        offset: z.number().int().min(0),
      })
      .strict()
      .optional(),
    enlarge: z.enum(['bicubic']).optional(),
  })
  .refine((p) => !((p.scale !== undefined || p.offset !== undefined) && (p.mean !== undefined || p.std !== undefined)), {
    message: 'preprocess takes scale/offset or mean/std, not both',
  })
  .refine((p) => p.interpolation !== 'bilinear-align-corners' || p.resize === 'stretch', {
    message: 'bilinear-align-corners applies to stretch only',
  })
  .refine((p) => p.trim === undefined || p.resize === 'letterbox', { message: 'trim applies to letterbox only' })
  .refine((p) => p.wideFrame === undefined || (p.resize === 'stretch' && p.interpolation === 'bilinear'), {
    message: 'wideFrame applies to a bilinear stretch only',
  })
  .refine((p) => p.enlarge === undefined || (p.resize === 'stretch' && p.interpolation === 'bilinear'), {
    message: 'enlarge applies to a bilinear stretch only',
  })
  .refine((p) => p.channels !== 'grey' || p.resize === 'window', { message: 'grey input is produced by the window warp only' })
  .refine((p) => p.resize !== 'window' || [p.scale, p.offset, p.mean, p.std].every((v) => typeof v !== 'object'), {
    message: 'window preprocessing takes one scale/offset (or mean/std) for all channels',
  });

const inputSchema = z
  .object({
    name: z.string().min(1),
    shape: dims,
    dtype: z.enum(['float32', 'uint8', 'int8']),
    layout: z.enum(['NHWC', 'NCHW']),
    range: z.tuple([z.number(), z.number()]).refine(([lo, hi]) => lo < hi, 'range must be [lo, hi] with lo < hi'),
    normalization: z.string().min(1),
    preprocess: preprocessSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const p = input.preprocess;
    if (!p) return;
    const [h, w] = p.layout === 'NHWC' ? [input.shape[1], input.shape[2]] : [input.shape[2], input.shape[3]];
    if (p.layout !== input.layout)
      ctx.addIssue({ code: 'custom', path: ['preprocess', 'layout'], message: 'preprocess layout differs from the input layout' });
    if (p.dtype !== input.dtype)
      ctx.addIssue({ code: 'custom', path: ['preprocess', 'dtype'], message: 'preprocess dtype differs from the input dtype' });
    const c = p.layout === 'NHWC' ? input.shape[3] : input.shape[1];
    if (c !== (p.channels === 'grey' ? 1 : 3))
      ctx.addIssue({
        code: 'custom',
        path: ['preprocess', 'channels'],
        message: `preprocess channels ${p.channels} differ from the input shape`,
      });
    if (p.size[0] !== w || p.size[1] !== h)
      ctx.addIssue({
        code: 'custom',
        path: ['preprocess', 'size'],
        message: `preprocess size ${p.size.join('x')} differs from the input shape`,
      });
  });

const outputSchema = z.object({
  name: z.string().min(1),
  shape: dims,
  /** Element type when not float32 (quantized scores, class indices). */
  dtype: z.enum(['float32', 'uint8', 'int8', 'int32', 'int64']).optional(),
  meaning: z.string().min(1),
});

/** Affine quantization of one tensor: real = scale · (q − zeroPoint). */
const tensorQuantization = z.object({ scale: z.number().positive(), zeroPoint: z.number().int() });

const modelSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'id must be kebab-case'),
    task: z.string().min(1),
    file: z.string().regex(/^[\w.-]+\.onnx$/, 'file must be a plain .onnx file name inside models/'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits'),
    bytes: z.number().int().positive(),
    source: z.object({ package: z.string().min(1), version: z.string().min(1), path: z.string().min(1) }),
    license: z.string().min(1),
    inputs: z.array(inputSchema).min(1),
    outputs: z.array(outputSchema).min(1),
    labels: z
      .string()
      .regex(/^labels\/[\w.-]+\.json$/)
      .optional(),
    /** Integer-quantized models: the element type the graph computes in. */
    precision: z.enum(['uint8', 'int8']).optional(),
    /**
     * int8 rewrites of a float model (`npm run models:quantize`): the float file it was made from
     * (kept in models/ as the quantiser's source), the method and the calibration images.
     */
    quantizedFrom: z
      .object({
        file: z.string().regex(/^[\w.-]+\.onnx$/),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        bytes: z.number().int().positive(),
        method: z.string().min(1),
        calibration: z.string().min(1),
      })
      .optional(),
    /** Per-tensor quantization of quantized inputs/outputs, by tensor name. */
    quantization: z
      .object({ inputs: z.record(z.string(), tensorQuantization), outputs: z.record(z.string(), tensorQuantization) })
      .optional(),
  })
  .superRefine((m, ctx) => {
    // A dynamic batch is all or nothing: one run's N inputs give N of every output.
    const dynamic = m.inputs[0]!.shape[0] === DYNAMIC_BATCH;
    [...m.inputs.map((t, i) => ['inputs', i, t] as const), ...m.outputs.map((t, i) => ['outputs', i, t] as const)].forEach(([k, i, t]) => {
      if ((t.shape[0] === DYNAMIC_BATCH) !== dynamic)
        ctx.addIssue({ code: 'custom', path: [k, i, 'shape'], message: 'every input and output has a dynamic batch (-1), or none' });
    });
    // An integer input is meaningless without its scale and zero point.
    m.inputs.forEach((input, i) => {
      if (input.dtype !== 'float32' && !m.quantization?.inputs[input.name])
        ctx.addIssue({
          code: 'custom',
          path: ['inputs', i, 'dtype'],
          message: `${input.dtype} input needs quantization.inputs.${input.name}`,
        });
    });
  });

/** One model as declared in the manifest: file, checksum, input contract and outputs. */
export type ModelSpec = z.infer<typeof modelSchema>;
/** One graph input: shape (batch first), layout, dtype, value range, normalization text and structured preprocessing. */
export type ModelInputSpec = ModelSpec['inputs'][number];
/** An image input's preprocessing as the manifest declares it. */
export type Preprocess = z.infer<typeof preprocessSchema>;
/** One graph output by name, with its shape and meaning. */
export type ModelOutputSpec = ModelSpec['outputs'][number];

/** The validated manifest: specs by id, in manifest order. */
export interface Manifest {
  readonly version: 1;
  readonly models: ReadonlyMap<string, ModelSpec>;
}

function invalid(message: string, details: Record<string, string>): AppError {
  return new AppError('model-failed', message, { details });
}

/** Validates parsed manifest JSON. Throws `model-failed` naming the first bad model id. */
export function parseManifest(json: unknown): Manifest {
  const top = z.object({ version: z.literal(1), models: z.array(z.unknown()) }).safeParse(json);
  if (!top.success) throw invalid(`Model manifest is invalid: ${top.error.issues[0]?.message ?? 'bad shape'}`, { model: '' });
  const models = new Map<string, ModelSpec>();
  top.data.models.forEach((raw, index) => {
    const id =
      typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string'
        ? (raw as { id: string }).id
        : `#${index}`;
    const parsed = modelSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.join('.');
      throw invalid(`Model manifest entry "${id}" is invalid at ${where || '(root)'}: ${issue.message}`, { model: id, field: where });
    }
    if (models.has(id)) throw invalid(`Model manifest lists "${id}" twice`, { model: id, field: 'id' });
    models.set(id, parsed.data);
  });
  return { version: 1, models };
}

/** Reads and validates a manifest file (`model-missing` if it is absent). */
export function loadManifest(file: string): Manifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AppError('model-missing', `Model manifest not found: ${file}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new AppError('model-failed', `Model manifest is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseManifest(json);
}
