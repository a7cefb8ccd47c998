import type { ErrorCode } from './errors';

/** One entry of a URL list: a normalised URL, or the text as written with the reason it was refused. */
export interface ListEntry {
  /** 1-based physical line (text), or the line a CSV record ends on. */
  line: number;
  /**
   * The item's identity, and the de-duplication key: the normalised URL when valid, the full
   * trimmed text when not (never cut, so two long lines stay two items).
   */
  url: string;
  metadata: Record<string, string> | null;
  error: { code: ErrorCode; message: string } | null;
}

/**
 * Longest accepted URL, in characters. undici sets no limit of its own on the request target,
 * and servers commonly refuse request lines over 8–16 KiB; 64 KiB is far above any real image
 * URL (data: URLs are refused anyway) yet keeps a list's items bounded.
 */
export const MAX_LIST_URL_CHARS = 64 * 1024;

/** How much of a refused text an error message quotes, in characters. */
const SHOWN_CHARS = 200;

const ACCEPTED_SCHEMES = new Set(['http:', 'https:', 'file:']);

/**
 * A list line as messages may quote it: any user name and password replaced by `***`, whether or
 * not the line parses as a URL (credentials are never echoed, docs/intake.md). The item keeps the
 * line as written as its identity; only what is shown changes.
 */
export function withoutUserinfo(text: string): string {
  if (!text.includes('@')) return text;
  // Userinfo wherever a URL parser could find it: in a segment (text between / ? # \\) that opens
  // an authority (`opensAuthority`), up to its last `@`. Spaces included: a parser percent-encodes
  // them, so `http://user:p w@host` is a valid URL with a password. One pass, linear in the text:
  // lines reach 64 KiB, and a backtracking pattern took seconds on a long run of letters.
  const parts: string[] = [];
  let copied = 0; // text before this index is in `parts`
  for (let start = 0; start < text.length;) {
    let end = start;
    let lastAt = -1;
    for (; end < text.length && !SEGMENT_ENDS.includes(text[end]!); end++) if (text[end] === '@') lastAt = end;
    if (lastAt >= 0 && opensAuthority(text, start)) {
      parts.push(text.slice(copied, start), '***@');
      copied = lastAt + 1;
    }
    start = end + 1;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Characters that end a URL's authority (and so its userinfo). */
const SEGMENT_ENDS = '/?#\\';
const isSlash = (c: string | undefined): boolean => c === '/' || c === '\\';
const isSchemeChar = (c: string): boolean => /[A-Za-z0-9+.-]/.test(c);
const isLetter = (c: string): boolean => /[A-Za-z]/.test(c);

/**
 * Whether a parser may read userinfo from the segment at `start`: the text's start (`user:pw@host`,
 * and `http:user:pw@host`, which WHATWG reads as http://user:pw@host), after two slashes either
 * way round (`//`, `\\\\`), or after `scheme:` and one slash.
 */
function opensAuthority(text: string, start: number): boolean {
  if (start === 0) return true;
  let slashes = 0;
  while (slashes < 2 && isSlash(text[start - 1 - slashes])) slashes++;
  if (slashes === 2) return true;
  if (slashes === 0 || text[start - 2] !== ':') return false;
  // A scheme is a letter followed by letters, digits, + . or -: any letter in the run before `:` starts one.
  for (let k = start - 3; k >= 0 && isSchemeChar(text[k]!); k--) if (isLetter(text[k]!)) return true;
  return false;
}

/**
 * The file: URL of a line that is an absolute local path, as `picscan analyze` takes one: POSIX
 * (`/home/ana/a.jpg`), Windows (`C:\Photos\a.jpg`, `C:/Photos/a.jpg`) or UNC
 * (`\\server\share\a.jpg`). `ls /photos/*.jpg > list.txt` makes such a list; without this, the
 * POSIX lines were "not a valid URL" and the Windows ones "used the c: scheme". Written without
 * node:url, as the renderer's list preview runs this too: `%` is escaped first and the URL's
 * pathname setter escapes what else a path may hold (`#`, `?`, spaces).
 */
function localPathUrl(text: string): string | undefined {
  const drive = /^[A-Za-z]:[\\/]/.test(text);
  const unc = /^\\\\[^\\/]+[\\/]/.test(text);
  if (!drive && !unc && !(text.startsWith('/') && !text.startsWith('//'))) return undefined;
  const escaped = text.replace(/%/g, '%25');
  const path = drive || unc ? escaped.replace(/\\/g, '/') : escaped.replace(/\\/g, '%5C');
  try {
    if (unc) {
      const [, host, rest] = /^\/\/([^/]+)(\/.*)$/.exec(path)!;
      const url = new URL(`file://${host}/`);
      url.pathname = rest!;
      return url.href;
    }
    const url = new URL('file:///');
    url.pathname = drive ? `/${path}` : path;
    return url.href;
  } catch {
    return undefined;
  }
}

/** A URL scheme at the start of a line (RFC 3986: a letter, then letters, digits, `+`, `.` or `-`, then `:`). */
const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True for an absolute Windows folder: a drive (`C:\Photos`, `C:/Photos`) or a UNC share (`\\server\share`). */
const isWindowsDir = (dir: string): boolean => /^[A-Za-z]:[\\/]/.test(dir) || /^\\\\[^\\/]+[\\/]/.test(dir);

/** `~` or `~/…`: the home folder, to a shell; a list is read without one. (`~draft.jpg` is a name.) */
const HOME_PREFIX = /^~([\\/]|$)/;

/**
 * Whether a line is a relative path: no URL scheme (`a.jpg`, `photos/a.jpg`, `./a.jpg`,
 * `../shared/a.jpg`, `photos\a.jpg`, but also `example.com/a.jpg`: a list is no address bar, and
 * `wget -r` mirrors a site into exactly such folders), and not rooted (`/…`, `\…`, `C:…`, `~/…`).
 */
function isRelativePath(text: string): boolean {
  return !SCHEME_PREFIX.test(text) && !/^[\\/]/.test(text) && !HOME_PREFIX.test(text);
}

/**
 * The file: URL of a relative path read against `baseDir`, an absolute folder (the list file's,
 * or the working directory for stdin): the two joined as text, then read as `localPathUrl` reads
 * an absolute path, whose URL parser drops `.` segments and applies `..` ones. Against a Windows
 * folder `\` and `/` both separate; against a POSIX one `\` is part of a name (as in an absolute
 * POSIX line). `undefined` when `baseDir` is not absolute.
 */
function relativePathUrl(text: string, baseDir: string): string | undefined {
  if (isWindowsDir(baseDir)) return localPathUrl(`${baseDir.replace(/[\\/]+$/, '')}\\${text}`);
  if (!baseDir.startsWith('/')) return undefined;
  return localPathUrl(`${baseDir.replace(/\/+$/, '')}/${text}`);
}

/**
 * Checks and normalises one URL of a list: http(s) or file:, or an absolute local path; no
 * credentials, at most 64 KiB. With `baseDir` (an absolute folder; only `picscan batch` gives one,
 * see `isRelativePath`) a relative path is read against it, and the item is its absolute file: URL.
 */
export function checkListUrl(raw: string, line: number, baseDir?: string): Pick<ListEntry, 'url' | 'error'> {
  const text = raw.trim();
  // Credentials go before the cut, which could otherwise drop the `@` that marks them.
  const safe = withoutUserinfo(text);
  const shown = safe.length > SHOWN_CHARS ? `${safe.slice(0, SHOWN_CHARS - 1)}…` : safe;
  const refuse = (code: ErrorCode, why: string): Pick<ListEntry, 'url' | 'error'> => ({
    url: text,
    error: { code, message: `Line ${line}: "${shown}" ${why}` },
  });
  if (text.length > MAX_LIST_URL_CHARS) {
    return refuse('invalid-image-url', `is ${text.length} characters long; URLs are limited to ${MAX_LIST_URL_CHARS}.`);
  }
  if (baseDir !== undefined && HOME_PREFIX.test(text)) {
    return refuse('invalid-image-url', 'starts with ~, which only a shell reads as the home folder; write the full path.');
  }
  const relative = baseDir !== undefined && isRelativePath(text) ? relativePathUrl(text, baseDir) : undefined;
  let url: URL;
  try {
    url = new URL(relative ?? localPathUrl(text) ?? text);
  } catch {
    return refuse(
      'invalid-image-url',
      'is not a valid URL (http://…, https://… or file:///…)' + (/^[^:]*[\\/.]/.test(text) ? ' or an absolute path to a local file.' : '.'),
    );
  }
  if (!ACCEPTED_SCHEMES.has(url.protocol)) {
    // Not named when it was taken out with the userinfo: in `alice:pw@host` the "scheme" is a user name.
    const scheme = safe.toLowerCase().startsWith(url.protocol) ? `the ${url.protocol} scheme` : 'another scheme';
    return refuse('unsupported-scheme', `uses ${scheme}; only http:, https: and file: are accepted.`);
  }
  if (url.username || url.password) return refuse('invalid-image-url', 'contains a user name or password.');
  if (url.protocol !== 'file:' && url.hostname === '') return refuse('invalid-image-url', 'has no host name.');
  if (url.href.length > MAX_LIST_URL_CHARS) {
    return refuse('invalid-image-url', `is ${url.href.length} characters long once normalised; URLs are limited to ${MAX_LIST_URL_CHARS}.`);
  }
  return { url: url.href, error: null };
}

/**
 * The entry for a CSV record whose `url` cell is empty: an invalid item of its own (never merged
 * with another empty cell), named by its line.
 */
export function emptyUrlEntry(line: number, metadata: Record<string, string> | null): ListEntry {
  return {
    line,
    url: `(empty url cell, line ${line})`,
    metadata,
    error: { code: 'invalid-image-url', message: `Line ${line}: the url cell is empty.` },
  };
}
