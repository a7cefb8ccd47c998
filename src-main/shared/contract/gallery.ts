/** Gallery enrolment (`galleries:add`, the gallery form in Settings, `picscan gallery add`). */
import { z } from 'zod';
import type { GalleryAddRequest } from '../index'; // (`../ipc` reads as the ipc layer to the import-direction lint)
import { GALLERY } from './limits';

/** A person or place name, as enrolment and the gallery file import both accept it. */
export const galleryNameSchema = z.string().trim().min(1).max(GALLERY.nameMaxChars);
const name = galleryNameSchema;
const images = z.array(z.string().trim().min(1).max(GALLERY.imageMaxChars)).min(GALLERY.images.min).max(GALLERY.images.max);

/** A person (one face per reference image) or a place. */
export const galleryAddSchema: z.ZodType<GalleryAddRequest, unknown> = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('person'),
      name,
      images,
      faceNumber: z.number().int().min(GALLERY.faceNumber.min).max(GALLERY.faceNumber.max).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('place'),
      name,
      images,
      latitude: z.number().min(GALLERY.latitude.min).max(GALLERY.latitude.max),
      longitude: z.number().min(GALLERY.longitude.min).max(GALLERY.longitude.max),
      mid: z.string().trim().max(GALLERY.midMaxChars).optional(),
    })
    .strict(),
]);
