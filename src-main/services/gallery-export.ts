/**
 * The portable gallery file (`picscan gallery export/import`): JSON with every entry, its
 * references' descriptors (base64 little-endian float32) and thumbnails, and for each reference
 * the model id, model file sha256 and recipe that made it, so another install can tell whether
 * the vectors are comparable with its own models.
 */
import { z } from 'zod';

/** Format tag and version of the file. */
export const GALLERY_FILE_FORMAT = 'picscan-gallery';
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

export type GalleryFile = z.infer<typeof galleryFileSchema>;
export type GalleryFileEntry = GalleryFile['entries'][number];
export type GalleryFileReference = GalleryFileEntry['references'][number];
