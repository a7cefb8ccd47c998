/**
 * The portable gallery file (`picscan gallery export/import`): JSON with every entry, its
 * references' descriptors (base64 little-endian float32) and thumbnails, and for each reference
 * the model id, model file sha256 and recipe that made it, so another install can tell whether
 * the vectors are comparable with its own models.
 */
import { z } from 'zod';
import { decodeVector, encodeVector, type DescriptorSpec } from '../analysis/gallery/index';
import { AppError } from '../core';
import type { GalleryReferenceRecord, NewGalleryReference } from '../store';

/** Format tag and version of the file. */
export const GALLERY_FILE_FORMAT = 'picscan-gallery';
/** Bumped on any incompatible change of the file layout. */
export const GALLERY_FILE_VERSION = 1;

const referenceSchema = z
  .object({
    source: z.string(),
    modelId: z.string().min(1),
    modelSha256: z.string().regex(/^[0-9a-f]{64}$/),
    method: z.string().min(1),
    dim: z.number().int().positive(),
    descriptor: z.string().min(1),
    face: z
      .object({ left: z.number().int(), top: z.number().int(), width: z.number().int().positive(), height: z.number().int().positive() })
      .nullable(),
    thumbnail: z.string().nullable(),
    thumbnailType: z.string().nullable(),
  })
  .strict();

const entrySchema = z
  .object({
    kind: z.enum(['person', 'place']),
    name: z.string().trim().min(1),
    mid: z.string().nullable(),
    latitude: z.number().min(-90).max(90).nullable(),
    longitude: z.number().min(-180).max(180).nullable(),
    references: z.array(referenceSchema).min(1),
  })
  .strict();

/** Schema of the whole file. */
export const galleryFileSchema = z
  .object({
    format: z.literal(GALLERY_FILE_FORMAT),
    version: z.literal(GALLERY_FILE_VERSION),
    exportedAt: z.string(),
    /** The exporting install's models, for the reader's first check. */
    models: z.record(z.string(), z.object({ sha256: z.string(), method: z.string() })),
    entries: z.array(entrySchema),
  })
  .strict();

/** A parsed gallery file. */
export type GalleryFile = z.infer<typeof galleryFileSchema>;
/** One person or place of the file. */
export type GalleryFileEntry = GalleryFile['entries'][number];
/** One reference of an entry: descriptor (base64 float32 LE) with the model that made it. */
export type GalleryFileReference = GalleryFileEntry['references'][number];

/** Validates parsed JSON as a gallery file; `invalid-input` naming the first problem. */
export function parseGalleryFile(json: unknown): GalleryFile {
  const parsed = galleryFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(
    'invalid-input',
    `Not a picscan gallery file: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'bad shape'}.`,
  );
}

/** A stored reference as written to the file. */
export function toFileReference(r: GalleryReferenceRecord): GalleryFileReference {
  return {
    source: r.source,
    modelId: r.modelId,
    modelSha256: r.modelSha256,
    method: r.method,
    dim: r.dim,
    descriptor: encodeVector(r.descriptor),
    face: r.face,
    thumbnail: r.thumbnail ? Buffer.from(r.thumbnail).toString('base64') : null,
    thumbnailType: r.thumbnailType,
  };
}

/**
 * Refuses a reference that the installed model (`installedSha256`) and recipe (`spec`) cannot
 * compare with, naming the model and both checksums.
 */
export function checkComparable(spec: DescriptorSpec, installedSha256: string, r: GalleryFileReference, entryName: string): void {
  if (r.modelId === spec.modelId && r.modelSha256 === installedSha256 && r.method === spec.method && r.dim === spec.dim) return;
  throw new AppError(
    'invalid-input',
    `Gallery file not imported: "${entryName}" was described by ${r.modelId} (sha256 ${r.modelSha256.slice(0, 12)}…, ${r.method}) but this install uses ` +
      `${spec.modelId} (sha256 ${installedSha256.slice(0, 12)}…, ${spec.method}). Descriptors from another model are not comparable; enrol from the original images instead.`,
    { details: { model: spec.modelId, fileSha256: r.modelSha256, installedSha256 } },
  );
}

/** A file reference (already checked comparable) as a reference to store. */
export function fromFileReference(r: GalleryFileReference, entryName: string): NewGalleryReference {
  const descriptor = decodeVector(r.descriptor);
  if (descriptor.length !== r.dim)
    throw new AppError('invalid-input', `Gallery file: a reference of "${entryName}" has ${descriptor.length} values, expected ${r.dim}.`);
  const thumbnail = r.thumbnail ? new Uint8Array(Buffer.from(r.thumbnail, 'base64')) : null;
  return {
    entryId: 0,
    source: r.source,
    modelId: r.modelId,
    modelSha256: r.modelSha256,
    method: r.method,
    dim: r.dim,
    descriptor,
    face: r.face,
    thumbnail,
    thumbnailType: thumbnail ? (r.thumbnailType ?? 'image/jpeg') : null,
  };
}
