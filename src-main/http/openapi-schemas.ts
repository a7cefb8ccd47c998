/**
 * zod schemas of the API's responses and the per-route schema objects Fastify and
 * @fastify/swagger read. Parameters are the contract's schemas (`shared/contract`), the very ones
 * the gateway parses with, so the document and the validation share one source.
 */
import { z } from 'zod';
import { analyzeParamsSchema, detectParamsSchema, thumbnailParamsSchema } from '../shared/contract';
import { KAIROS, wireMapping } from '../shared/api-errors';
import type { ErrorCode } from '../shared/errors';
import { COLOR_NAMES } from '../shared/spec';
import { TRANSPORT_AZURE } from './errors';

/** Every error code (compile-checked: a new code fails here until listed). */
const ERROR_CODES = Object.keys({
  'invalid-input': 1,
  'not-found': 1,
  cancelled: 1,
  internal: 1,
  'model-missing': 1,
  'model-failed': 1,
  'decode-failed': 1,
  'invalid-image-url': 1,
  'unsupported-scheme': 1,
  'image-fetch-failed': 1,
  'image-timeout': 1,
  'image-too-large': 1,
  'invalid-image-format': 1,
  'image-too-small': 1,
  'image-dimensions-exceeded': 1,
  'blocked-address': 1,
  'file-not-found': 1,
  'missing-parameter': 1,
  'invalid-parameter': 1,
  'unsupported-feature': 1,
  'invalid-details': 1,
  'unsupported-language': 1,
  'no-faces': 1,
  'too-many-faces': 1,
  unauthorized: 1,
  'insufficient-credit': 1,
  'rate-limited': 1,
  'tier-unavailable': 1,
  'payload-too-large': 1,
  'malformed-json': 1,
  'remote-failed': 1,
  'invalid-list': 1,
  'storage-failed': 1,
  'batch-locked': 1,
  'image-rate-limited': 1,
} satisfies Record<ErrorCode, 1>) as ErrorCode[];

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** Azure-style codes of analyze and thumbnail failures, with the transport refusals' (415, 408, 431…). */
export const AZURE_CODES = unique([...ERROR_CODES.map((c) => wireMapping(c).azure), ...Object.values(TRANSPORT_AZURE)]).sort();
/** Kairos ErrCodes of detect failures (415 adds `unsupportedMediaType`). */
export const KAIROS_CODES = unique<number>([...ERROR_CODES.map((c) => wireMapping(c).kairos), KAIROS.unsupportedMediaType]).sort(
  (a, b) => a - b,
);

const rect = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
const colorName = z.enum(COLOR_NAMES);

/** `data` of a successful analysis (spec §2.2); parts follow the requested features. */
export const analyzeDataSchema = z
  .object({
    categories: z
      .array(
        z.object({
          name: z.string(),
          score: z.number(),
          detail: z
            .object({
              celebrities: z.array(z.object({ name: z.string(), faceRectangle: rect, confidence: z.number() })).optional(),
              landmarks: z.array(z.object({ name: z.string(), confidence: z.number() })).optional(),
            })
            .optional(),
        }),
      )
      .optional(),
    adult: z.object({ isAdultContent: z.boolean(), isRacyContent: z.boolean(), adultScore: z.number(), racyScore: z.number() }).optional(),
    tags: z.array(z.object({ name: z.string(), confidence: z.number() })).optional(),
    description: z
      .object({ tags: z.array(z.string()), captions: z.array(z.object({ text: z.string(), confidence: z.number() })) })
      .optional(),
    requestId: z.string(),
    metadata: z.object({ width: z.int(), height: z.int(), format: z.enum(['Jpeg', 'Png']) }),
    faces: z.array(z.object({ age: z.number(), gender: z.enum(['Male', 'Female']), faceRectangle: rect })).optional(),
    color: z
      .object({
        dominantColorForeground: colorName,
        dominantColorBackground: colorName,
        dominantColors: z.array(colorName),
        accentColor: z.string(),
        isBWImg: z.boolean(),
      })
      .optional(),
    imageType: z.object({ clipArtType: z.int().min(0).max(3), lineDrawingType: z.int().min(0).max(1) }).optional(),
    Landmarks: z
      .array(
        z.object({
          mid: z.string(),
          description: z.string(),
          score: z.number(),
          boundingPoly: z.object({ vertices: z.array(z.object({ x: z.number(), y: z.number() })) }),
          locations: z.array(z.object({ latLng: z.object({ latitude: z.number(), longitude: z.number() }) })),
        }),
      )
      .optional(),
  })
  .meta({ id: 'AnalyzeData' });

const envelopeBase = {
  response: z.string().describe('`success`, or the error message.'),
  status: z.boolean(),
  classifier: z.array(z.object({ Id: z.string(), Response: z.string() })),
  transaction: z.object({ Id: z.string().describe('Charged transaction id; empty when nothing was charged.'), Method: z.string() }),
  trace_id: z.string(),
};
const azureError = z.object({ code: z.enum(AZURE_CODES as [string, ...string[]]), message: z.string() });

/** The analyze envelope (spec §2.1): `data` on success, `error` on failure. */
export const analyzeEnvelopeSchema = z
  .object({ query: z.literal('analyze'), ...envelopeBase, data: analyzeDataSchema.optional(), error: azureError.optional() })
  .meta({ id: 'AnalyzeEnvelope' });

/** A failed thumbnail call: analyze's envelope with `query: 'thumbnail'`, no data. */
export const thumbnailFailureSchema = z
  .object({ query: z.literal('thumbnail'), ...envelopeBase, error: azureError })
  .meta({ id: 'ThumbnailFailure' });

const detectedFace = z.object({
  face_id: z.int(),
  topLeftX: z.int(),
  topLeftY: z.int(),
  width: z.int(),
  height: z.int(),
  chinTipX: z.int(),
  chinTipY: z.int(),
  leftEyeCenterX: z.int(),
  leftEyeCenterY: z.int(),
  rightEyeCenterX: z.int(),
  rightEyeCenterY: z.int(),
  yaw: z.int(),
  pitch: z.int(),
  roll: z.int(),
  confidence: z.number(),
  quality: z.number(),
  attributes: z.object({
    lips: z.enum(['Together', 'Apart']),
    glasses: z.enum(['None', 'Eye', 'Sun']),
    gender: z.object({ type: z.enum(['M', 'F']), maleConfidence: z.number(), femaleConfidence: z.number() }),
    age: z.number(),
    asian: z.number(),
    hispanic: z.number(),
    black: z.number(),
    white: z.number(),
    other: z.number(),
  }),
});

/** Faces found (spec §4.2). */
export const detectSuccessSchema = z
  .object({
    images: z.array(
      z.object({ status: z.literal('Complete'), width: z.int(), height: z.int(), file: z.string(), faces: z.array(detectedFace) }),
    ),
    trace_id: z.string(),
  })
  .meta({ id: 'DetectSuccess' });

/** Kairos errors (spec §7), HTTP 200 for parameter and image problems. */
export const detectErrorsSchema = z
  .object({
    Errors: z.array(
      z.object({
        Message: z.string(),
        ErrCode: z.union(KAIROS_CODES.map((c) => z.literal(c)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]]),
      }),
    ),
    trace_id: z.string(),
  })
  .meta({ id: 'DetectErrors' });

/** Error body of paths that are no operation (404). */
export const genericErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string() }), trace_id: z.string() })
  .meta({ id: 'Error' });

const keyQuery = { key: z.string().optional().describe('API key in the query (the GET form; header `key` also works).') };
const keyHeader = z.object({ key: z.string().optional().describe('API key in a header (the POST form; query `key` also works).') });

/** HTTP statuses of refusals and failures, with what each means. */
const FAILURES = {
  400: 'Bad parameter, malformed JSON, or an invalid, unreachable or blocked image (not charged).',
  401: 'No key, unknown or revoked key.',
  402: 'Balance below 0.09 ¢ or below the price.',
  403: 'Key on the free tier (not offered).',
  408: 'The request did not arrive in time; the connection is closed.',
  413: 'Body over 64 KiB.',
  415: 'Not `application/json` (uploads, raw bytes, forms).',
  417: 'An `Expect` header other than `100-continue`.',
  429: 'Per-minute, daily or monthly bound reached; see `Retry-After`.',
  431: 'Request head too large; the connection is closed.',
  500: 'Model failure or unexpected error.',
  503: 'The server is shutting down; retry in a moment.',
} as const;

/**
 * Response headers the API sets, as plain JSON Schema (the zod transform drops a response's
 * `headers`; `openapi.ts` carries them over). Every response has `X-Trace-Id`.
 */
export const TRACE_HEADER = {
  'X-Trace-Id': { type: 'string', description: 'Id of this request in the server log; the body repeats it as `trace_id`.' },
} as const;
const TRANSACTION_HEADER = {
  'X-Transaction-Id': { type: 'string', description: 'The charged transaction; absent when nothing was charged.' },
} as const;
const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', minimum: 0, description: 'Seconds until the bound that was reached admits a call again.' },
} as const;
/** Headers of a success: charged calls name their transaction. */
const CHARGED = { ...TRACE_HEADER, ...TRANSACTION_HEADER };

const json = <T extends z.ZodType>(description: string, schema: T, headers: object = TRACE_HEADER) => ({
  description,
  content: { 'application/json': { schema } },
  headers,
});
const failures = <T extends z.ZodType>(schema: T) =>
  Object.fromEntries(
    Object.entries(FAILURES).map(([status, description]) => [
      status,
      json(description, schema, status === '429' ? { ...TRACE_HEADER, ...RETRY_AFTER_HEADER } : TRACE_HEADER),
    ]),
  );

type Method = 'GET' | 'POST';

/** `analyzeGet`, `detectPost`, …: one operation id per path and method. */
const operationId = (name: string, method: Method): string => `${name}${method === 'GET' ? 'Get' : 'Post'}`;

/**
 * Request part of a route schema, as `callFromRequest` reads a request: the key from header or
 * query on both methods; GET parameters in the query; POST parameters in the JSON body merged
 * over the query string, so on POST each parameter may sit in either and neither is required on
 * its own (the operation refuses a required one missing from both).
 */
function request(method: Method, schema: z.ZodObject | z.ZodPipe<z.ZodObject, z.ZodType>) {
  // Documentation only (routes parse themselves): a transformed schema is described by its input.
  const params = schema instanceof z.ZodPipe ? schema.in : schema;
  return method === 'GET'
    ? { querystring: params.extend(keyQuery), headers: keyHeader }
    : { body: params.partial(), headers: keyHeader, querystring: params.partial().extend(keyQuery) };
}

/** What the POST form adds to an operation's description: where its required parameters may be. */
const postNote = (method: Method, required: string): string =>
  method === 'POST' ? ` The JSON body is merged over the query string: ${required} must be in one of them.` : '';

/** Route schema of `/ai/vision/analyze`. */
export function analyzeRouteSchema(method: Method) {
  return {
    operationId: operationId('analyze', method),
    summary: 'Analyze an image',
    description:
      'Categories, tags, description, faces, image type, adult scores and colours of one image (spec §4.1). One transaction when it succeeds.' +
      postNote(method, '`image`'),
    tags: ['vision'],
    ...request(method, analyzeParamsSchema),
    response: {
      200: json('The analysis envelope; `X-Transaction-Id` names the charge.', analyzeEnvelopeSchema, CHARGED),
      ...failures(analyzeEnvelopeSchema),
    },
  };
}

/** The ErrCodes detect answers with HTTP 200: parameter, image and face-count problems. */
const DETECT_BODY_CODES = [
  KAIROS.missingParameter,
  KAIROS.invalidParameter,
  KAIROS.invalidImage,
  KAIROS.invalidUrl,
  KAIROS.noFaces,
  KAIROS.tooManyFaces,
];

/** Route schema of `/ai/faces/detect` and `/ai/faces/train`. */
export function detectRouteSchema(method: Method, alias = false) {
  const errors = failures(detectErrorsSchema);
  return {
    operationId: operationId(alias ? 'train' : 'detect', method),
    summary: alias ? 'Detect faces (alias of /ai/faces/detect)' : 'Detect faces',
    description: `Faces with landmarks, pose, quality and attributes (spec §4.2). Parameter and image problems come as Kairos \`Errors\` with HTTP 200; ${KAIROS.noFaces} (no faces) and ${KAIROS.tooManyFaces} (too many) are charged.${postNote(method, '`image`')}`,
    tags: ['faces'],
    ...request(method, detectParamsSchema),
    response: {
      200: json(
        `Faces found, or Kairos errors (${DETECT_BODY_CODES.join(', ')}).`,
        z.union([detectSuccessSchema, detectErrorsSchema]),
        CHARGED,
      ),
      400: json(`Malformed JSON (ErrCode ${KAIROS.invalidParameter}).`, detectErrorsSchema),
      ...Object.fromEntries(Object.entries(errors).filter(([s]) => s !== '400')),
    },
  };
}

/** Route schema of `/ai/vision/thumbnail`. */
export function thumbnailRouteSchema(method: Method) {
  const image = z.string().meta({ format: 'binary' });
  return {
    operationId: operationId('thumbnail', method),
    summary: 'Make a thumbnail',
    description:
      'The image scaled and cropped to exactly `width × height`: JPEG for JPEG input, PNG for PNG input. With `smartCropping` the crop holds the faces, else the main subject, else the most salient region. One transaction at the tier price.' +
      postNote(method, '`image`, `width` and `height`'),
    tags: ['vision'],
    ...request(method, thumbnailParamsSchema),
    response: {
      200: {
        description: 'The thumbnail bytes; `X-Transaction-Id` names the charge.',
        content: { 'image/jpeg': { schema: image }, 'image/png': { schema: image } },
        headers: CHARGED,
      },
      ...failures(thumbnailFailureSchema),
    },
  };
}
