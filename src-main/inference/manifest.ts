/**
 * Loads and validates `models/manifest.json` into typed model specs. A bad entry fails fast with
 * an error naming the model id, so a broken install is caught at startup, not mid-batch.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../core';

const dims = z.array(z.number().int().positive()).min(1);

const inputSchema = z.object({
  name: z.string().min(1),
  shape: dims,
  dtype: z.literal('float32'),
  layout: z.enum(['NHWC', 'NCHW']),
  range: z.tuple([z.number(), z.number()]).refine(([lo, hi]) => lo < hi, 'range must be [lo, hi] with lo < hi'),
  normalization: z.string().min(1),
});

const outputSchema = z.object({ name: z.string().min(1), shape: dims, meaning: z.string().min(1) });

const modelSchema = z.object({
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
});

/** One model as declared in the manifest: file, checksum, input contract and outputs. */
export type ModelSpec = z.infer<typeof modelSchema>;
/** One graph input: shape (batch first), layout, value range and normalization text. */
export type ModelInputSpec = ModelSpec['inputs'][number];
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
