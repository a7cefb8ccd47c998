/**
 * What the app needs of a remote service's results before it stores them (spec §2.2, §2.4):
 * the fields the results index, filters and views read, with their JSON types. Read leniently:
 * other fields, other values of names and enums, and absent optional parts all pass, so any
 * service that follows the spec does; a reply that breaks these types is refused with the path
 * of the first problem instead of failing later as an internal error or storing garbage.
 */
import { z } from 'zod';

const num = z.number();
const rect = z.looseObject({ left: num, top: num, width: num, height: num });
const named = z.looseObject({ name: z.string(), confidence: num });

/** `data` of an analyze reply, as far as storage and views read it. */
export const remoteAnalyzeDataSchema = z.looseObject({
  categories: z
    .array(
      z.looseObject({
        name: z.string(),
        score: num,
        detail: z.looseObject({ celebrities: z.array(named).nullish(), landmarks: z.array(named).nullish() }).nullish(),
      }),
    )
    .nullish(),
  adult: z.looseObject({ adultScore: num, racyScore: num }).nullish(),
  tags: z.array(named).nullish(),
  description: z
    .looseObject({ tags: z.array(z.string()).nullish(), captions: z.array(z.looseObject({ text: z.string(), confidence: num })).nullish() })
    .nullish(),
  metadata: z.looseObject({ width: num, height: num, format: z.string() }).nullish(),
  faces: z.array(z.looseObject({ faceRectangle: rect })).nullish(),
  color: z
    .looseObject({
      dominantColorForeground: z.string().nullish(),
      dominantColorBackground: z.string().nullish(),
      dominantColors: z.array(z.string()).nullish(),
      accentColor: z.string().nullish(),
      isBWImg: z.boolean().nullish(),
    })
    .nullish(),
  imageType: z.looseObject({ clipArtType: num, lineDrawingType: num }).nullish(),
  Landmarks: z.array(z.looseObject({ description: z.string(), score: num })).nullish(),
});

/** The `images` of a detect reply, as far as storage and views read them. */
export const remoteDetectImagesSchema = z.array(
  z.looseObject({
    width: num.nullish(),
    height: num.nullish(),
    faces: z.array(z.looseObject({ topLeftX: num, topLeftY: num, width: num, height: num })),
  }),
);

/** The `Errors` of a detect reply (spec §7). */
export const remoteDetectErrorsSchema = z.array(z.looseObject({ Message: z.string(), ErrCode: num }));
