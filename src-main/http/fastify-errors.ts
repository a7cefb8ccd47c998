import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toWireError, type Logger } from '../core';
import { errorReply, type ApiError } from './error-body';
import { TRANSPORT_AZURE } from './errors';
import { KAIROS } from '../shared/api-errors';
import { routeFamily } from './route-family';

const UNSUPPORTED_MEDIA =
  'Only JSON bodies (Content-Type: application/json) are accepted. File uploads, form posts and raw image bytes are not: pass a public image URL in `image`.';

/**
 * The API error for anything Fastify or a route threw. Fastify's own messages are never used:
 * several quote the URL or the body (`'/ai/…?key=…' is not a valid url component`, JSON parse
 * errors quote the text around the fault), and either may hold a key.
 */
export function fromFastifyError(err: FastifyError, log: Logger): ApiError {
  if (err instanceof AppError) return toWireError(err);
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        code: 'payload-too-large',
        message: 'The request body is too large: send only the JSON parameters; the image goes by URL in `image`.',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        code: 'invalid-input',
        message: UNSUPPORTED_MEDIA,
        status: 415,
        azure: TRANSPORT_AZURE.unsupportedMediaType,
        kairos: KAIROS.unsupportedMediaType,
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY': // Fastify 5's JSON parse error (no longer a SyntaxError)
      return { code: 'malformed-json', message: 'The body is not valid JSON.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'malformed-json', message: 'The body is empty although Content-Type is application/json.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'malformed-json', message: 'The Content-Length does not match the body.' };
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return badUrl();
  }
  if (err instanceof SyntaxError) return { code: 'malformed-json', message: 'The body is not valid JSON.' };
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    // Any other request Fastify refuses (its code names the rule, never the request's content).
    return { code: 'invalid-input', message: `The request was refused (${err.code ?? 'bad request'}).`, status: err.statusCode };
  }
  log.error('api internal error', { code: err.code, error: err.stack ?? err.message });
  return toWireError(err);
}

/** A call that arrives while the server shuts down (on a connection still busy with an earlier one). */
export function shuttingDown(): ApiError {
  return {
    code: 'internal',
    message: 'The server is shutting down: retry the call in a moment.',
    status: 503,
    azure: TRANSPORT_AZURE.unavailable,
    kairos: KAIROS.internal,
  };
}

/**
 * A method the path does not serve (PUT, DELETE, HEAD or OPTIONS on an operation): 405 with the
 * methods it does serve, for the `Allow` header RFC 9110 asks of a 405. HEAD is no GET here: it
 * would run, and charge, a whole analysis for headers.
 */
export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return {
    code: 'not-found',
    message: `${method} is not served on this path; use ${allowed.join(' or ')}.`,
    status: 405,
    azure: TRANSPORT_AZURE.methodNotAllowed,
    kairos: KAIROS.notFound,
  };
}

/** A request target that cannot be decoded (bad percent-encoding, over-long parameter). */
export function badUrl(): ApiError {
  return {
    code: 'invalid-input',
    message: 'The request URL is not valid: check its percent-encoding (e.g. %20 for a space).',
    status: 400,
    azure: TRANSPORT_AZURE.badRequest,
    kairos: KAIROS.invalidParameter,
  };
}

/** Sends an error in the shape of the request's route family, with its trace id. */
export function sendError(reply: FastifyReply, request: FastifyRequest, err: ApiError): FastifyReply {
  const traceId = String(request.id);
  const { status, body } = errorReply(routeFamily(request.url), err, traceId);
  return reply.header('x-trace-id', traceId).code(status).send(body);
}
