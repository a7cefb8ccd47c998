/**
 * zod issues as the app's error codes. Schemas of this folder raise `custom` issues carrying an
 * `ErrorCode` (and the parameter's name) in `params`; any other issue (a wrong type) is
 * `invalid-parameter` (`missing-parameter` when a required value is absent and the parse reported
 * inputs). Adapters turn the result into an `AppError` (main) or a form message
 * (renderer), so every transport answers a bad value with the same code and words.
 */
import type { z } from 'zod';
import type { ErrorCode, WireError } from '../errors';

/** What a schema attaches to a custom issue. */
interface ProblemParams {
  code: ErrorCode;
  parameter?: string;
  value?: string;
}

/** Adds a custom issue with an error code to a refinement or transform context. */
export function addProblem(
  ctx: { addIssue(issue: z.core.$ZodRawIssue | string): void } | z.core.$RefinementCtx,
  code: ErrorCode,
  message: string,
  parameter?: string,
  value?: string,
): void {
  const params: ProblemParams = { code, ...(parameter !== undefined && { parameter }), ...(value !== undefined && { value }) };
  ctx.addIssue({ code: 'custom', message, params, input: value });
}

/**
 * A refused value as a message quotes it: its JSON, or its kind when JSON cannot write it (an
 * array or object nested deeper than the stack allows, which a 64 KiB body can hold).
 */
export function quoted(value: unknown): string {
  // JSON has no Infinity or NaN (a JSON body's 1e999 parses as Infinity): JSON.stringify says null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // RangeError (too deep): name the kind instead.
  }
  return Array.isArray(value) ? 'an array' : typeof value === 'object' && value !== null ? 'an object' : String(value);
}

/** The first issue of a failed parse as a wire error (code, message, `details.parameter`). */
export function firstProblem(error: z.ZodError): WireError {
  const issue = error.issues[0];
  if (!issue) return { code: 'invalid-parameter', message: 'Invalid parameters.' };
  const params = (issue.code === 'custom' ? issue.params : undefined) as ProblemParams | undefined;
  const parameter = params?.parameter ?? (issue.path.length > 0 ? issue.path.map(String).join('.') : undefined);
  const details: WireError['details'] = {
    ...(parameter !== undefined && { parameter }),
    ...(params?.value !== undefined && { value: params.value }),
  };
  // With `reportInput`, an absent or null required value is missing rather than of a wrong type.
  const absent =
    (issue.code === 'invalid_type' || issue.code === 'invalid_union') &&
    'input' in issue &&
    (issue.input === undefined || issue.input === null);
  return {
    code: params?.code ?? (absent ? 'missing-parameter' : 'invalid-parameter'),
    message: issue.message,
    ...(Object.keys(details).length > 0 && { details }),
  };
}

/** Every issue as `path: message`, joined by `; ` (the UI bridge's `invalid-input` text). */
export function issueList(error: z.ZodError, root = 'request'): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || root}: ${i.message}`).join('; ');
}
