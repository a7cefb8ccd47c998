import { fileURLToPath } from 'node:url';
import { basename, resolve } from 'node:path';
import { AppError } from '../core';
import { describeRawInput, describeUrl } from './describe';

/** Where an input's bytes come from, after syntax checks. */
export type ImageSource =
  { kind: 'url'; url: URL; shown: string; fileName: string } | { kind: 'file'; path: string; shown: string; fileName: string };

// A scheme prefix as in RFC 3986; a single letter is a Windows drive (C:\…), not a scheme.
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/**
 * Classifies an input string: an http(s) URL, or (when local files are allowed) a `file:` URL or
 * a path. Throws `invalid-image-url`, `unsupported-scheme` for anything else.
 */
export function parseInput(input: string, allowLocalFiles: boolean): ImageSource {
  const trimmed = input.trim();
  if (trimmed === '') throw new AppError('invalid-image-url', 'No image URL was given.');
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (allowLocalFiles) return fileSource(resolve(trimmed));
    throw new AppError(
      'invalid-image-url',
      `"${describeRawInput(trimmed)}" is not a valid image URL: expected an http:// or https:// address.`,
    );
  }
  const url = parseUrl(trimmed);
  if (url.protocol === 'data:') {
    throw unsupportedScheme(url, 'inline (base64) images are not accepted; give the URL of a JPEG or PNG image');
  }
  if (url.protocol === 'file:') {
    if (!allowLocalFiles) throw unsupportedScheme(url, 'local files cannot be read here');
    try {
      return fileSource(fileURLToPath(url));
    } catch (cause) {
      throw new AppError('invalid-image-url', `"${describeUrl(url)}" is not a valid file URL.`, { cause });
    }
  }
  return checkHttpUrl(url, allowLocalFiles);
}

/** Checks an http(s) URL (an input or a redirect target) and names it for messages. */
export function checkHttpUrl(url: URL, allowLocalFiles = false): ImageSource & { kind: 'url' } {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw unsupportedScheme(
      url,
      allowLocalFiles
        ? 'only http: and https: URLs, file: URLs and file paths are accepted'
        : 'only http: and https: image URLs are accepted',
    );
  }
  if (url.username || url.password) {
    // Never echo the credentials: name the host only.
    throw new AppError(
      'invalid-image-url',
      `The image URL for host "${url.hostname}" contains a user name or password; credentials in image URLs are not accepted.`,
    );
  }
  if (url.hostname === '') throw new AppError('invalid-image-url', `"${describeUrl(url)}" is not a valid image URL: it has no host name.`);
  return { kind: 'url', url, shown: describeUrl(url), fileName: urlFileName(url) };
}

/** The last path segment, percent-decoded (the detect response's `file`); `image` when empty. */
export function urlFileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last; // malformed percent-escape: keep it as sent
  }
  return name === '' ? 'image' : name;
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch (cause) {
    throw new AppError('invalid-image-url', `"${describeRawInput(text)}" is not a valid image URL: it could not be parsed.`, { cause });
  }
}

function fileSource(path: string): ImageSource {
  return { kind: 'file', path, shown: path, fileName: basename(path) };
}

function unsupportedScheme(url: URL, why: string): AppError {
  return new AppError('unsupported-scheme', `"${describeUrl(url)}" uses the ${url.protocol} scheme; ${why}.`, {
    details: { scheme: url.protocol.replace(/:$/, '') },
  });
}

/** The host of an image URL (host and port), or undefined for a file path or a non-http(s) URL. */
export function urlHost(input: string): string | undefined {
  try {
    const url = new URL(input.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}
