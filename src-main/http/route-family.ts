/** Which spec body shape an error reply takes: the analyze envelope, Kairos `{ Errors }`, or the generic one. */
export type RouteFamily = 'analyze' | 'thumbnail' | 'detect' | 'generic';

// Matched on the raw path (never decoded), so even a URL too broken to route, e.g.
// `/ai/vision/analyze%E0%A4%A`, gets its operation's error shape.
const FAMILIES: ReadonlyArray<[RegExp, RouteFamily]> = [
  [/^\/ai\/vision\/analyze(?=$|[/%?#])/i, 'analyze'],
  [/^\/ai\/vision\/thumbnail(?=$|[/%?#])/i, 'thumbnail'],
  [/^\/ai\/faces\/(?:detect|train)(?=$|[/%?#])/i, 'detect'],
];

/** The route family of a raw request target (`/path?query`). */
export function routeFamily(rawUrl: string): RouteFamily {
  const path = pathOf(rawUrl);
  return FAMILIES.find(([re]) => re.test(path))?.[1] ?? 'generic';
}

/** The path of a raw request target, without query string or fragment. */
export function pathOf(rawUrl: string): string {
  return rawUrl.split(/[?#]/, 1)[0] ?? '';
}

// A key (`psk_` + base64url) wherever a client put it, and anything too long to be a route.
const KEY_LIKE = /psk_[A-Za-z0-9_-]*/gi;
const MAX_LOGGED_PATH = 80;

/**
 * A path safe to log: the route pattern when one matched, else the raw path with anything
 * key-like masked and cut to 80 characters. Never the query string.
 */
export function loggablePath(routePattern: string | undefined, rawUrl: string): string {
  if (routePattern) return routePattern;
  const masked = pathOf(rawUrl).replace(KEY_LIKE, 'psk_…');
  return masked.length > MAX_LOGGED_PATH ? `${masked.slice(0, MAX_LOGGED_PATH)}…` : masked;
}
