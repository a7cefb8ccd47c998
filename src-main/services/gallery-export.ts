/**
 * The portable gallery file (`picscan gallery export/import`): JSON with every entry, its
 * references' descriptors (base64 little-endian float32) and thumbnails, and for each reference
 * the model id, model file sha256 and recipe that made it, so another install can tell whether
 * the vectors are comparable with its own models.
 */
import { z } from 'zod';
import { decodeVector, encodeVector, type DescriptorSpec } from '../analysis/gallery/index';
import { AppError } from '../core';
import { GALLERY, galleryNameSchema } from '../shared/contract';
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
    // Enrolment's limits: a hand-edited file gets no more than `gallery add-person/add-place` would.
    name: galleryNameSchema,
    mid: z.string().trim().max(GALLERY.midMaxChars).nullable(),
    latitude: z.number().min(GALLERY.latitude.min).max(GALLERY.latitude.max).nullable(),
    longitude: z.number().min(GALLERY.longitude.min).max(GALLERY.longitude.max).nullable(),
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

/** Longest part of an entry's name quoted in a refusal (a hand-edited name may be thousands of characters). */
const QUOTED_NAME_MAX_CHARS = 40;

/** An entry's name as quoted in a refusal, shortened when long. */
export function quoteName(name: string): string {
  return `"${name.length > QUOTED_NAME_MAX_CHARS ? `${name.slice(0, QUOTED_NAME_MAX_CHARS)}…` : name}"`;
}

/** Validates parsed JSON as a gallery file; `invalid-input` naming the first problem (and its entry). */
export function parseGalleryFile(json: unknown): GalleryFile {
  const parsed = galleryFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw new AppError('invalid-input', 'Not a picscan gallery file: bad shape.');
  const [top, index, ...rest] = issue.path;
  if (top === 'entries' && typeof index === 'number') {
    const raw = (json as { entries: unknown[] }).entries[index] as { name?: unknown } | null;
    const label = typeof raw?.name === 'string' ? ` (${quoteName(raw.name.trim())})` : '';
    throw new AppError(
      'invalid-input',
      `Gallery file not imported: entry ${index + 1}${label}: ${rest.join('.') || '(entry)'}: ${issue.message}.`,
    );
  }
  throw new AppError('invalid-input', `Not a picscan gallery file: ${issue.path.join('.') || '(root)'}: ${issue.message}.`);
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
  if (r.modelId === spec.modelId && r.modelSha256 === installedSha256 && r.method === spec.method) return;
  throw new AppError(
    'invalid-input',
    `Gallery file not imported: ${quoteName(entryName)} was described by ${r.modelId} (sha256 ${r.modelSha256.slice(0, 12)}…, ${r.method}) but this install uses ` +
      `${spec.modelId} (sha256 ${installedSha256.slice(0, 12)}…, ${spec.method}). Descriptors from another model are not comparable; enrol from the original images instead.`,
    { details: { model: spec.modelId, fileSha256: r.modelSha256, installedSha256 } },
  );
}

/**
 * A file reference (already checked comparable) as a reference to store. Its descriptor must be
 * what enrolment stores: `spec.dim` finite values, not all zero (a zero vector has no direction,
 * so it would silently never match).
 */
export function fromFileReference(spec: DescriptorSpec, r: GalleryFileReference, entryName: string): NewGalleryReference {
  const descriptor = decodeVector(r.descriptor);
  const refuse = (why: string) =>
    new AppError('invalid-input', `Gallery file not imported: a reference of ${quoteName(entryName)} ${why}.`);
  // The declared size first: a hand-edited "dim" is the likelier mistake than a truncated vector.
  const length = r.dim !== spec.dim ? r.dim : descriptor.length;
  if (length !== spec.dim) throw refuse(`has the wrong descriptor length (${length}, expected ${spec.dim})`);
  if (!descriptor.every(Number.isFinite)) throw refuse('has a descriptor value that is not a finite number');
  if (descriptor.every((x) => x === 0)) throw refuse('has a descriptor of all zeros, which could never match');
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
