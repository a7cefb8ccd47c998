/** Intake limits and policy. Config wiring builds these from AppConfig; the defaults live here. */

/** One resolved address, as `dns.lookup(host, { all: true })` returns it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable so tests need no real DNS). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** How one image input is fetched, checked and decoded. All sizes are bytes, times milliseconds. */
export interface IntakeOptions {
  /** Accept local paths and `file:` URLs (desktop/CLI only; the API server never reads files). */
  allowLocalFiles: boolean;
  /** Refuse loopback, private, link-local, CGNAT, multicast and metadata addresses (SSRF guard). */
  blockPrivateNetworks: boolean;
  /** CIDRs exempt from `blockPrivateNetworks`, e.g. `['192.168.1.20/32']` for a user's own NAS. */
  allowedNetworks: readonly string[];
  /** Time allowed to open one TCP/TLS connection. */
  connectTimeoutMs: number;
  /** Time allowed for the whole fetch: every retry, redirect and body byte (Retry-After waits excluded). */
  totalTimeoutMs: number;
  /** Largest accepted body or file, checked against Content-Length and again while streaming. */
  maxBytes: number;
  /** Redirects followed before giving up (each hop is policy-checked). */
  maxRedirects: number;
  /** Extra attempts after a transient failure (reset connection, 5xx, 429). */
  maxRetries: number;
  /** First backoff delay; doubles per retry, with jitter. */
  retryBaseDelayMs: number;
  /** Longest backoff between attempts when the server gives no Retry-After. */
  maxRetryDelayMs: number;
  /**
   * Longest Retry-After honoured (the longest a batch holds an item for one server). A longer one
   * fails the input at once with `image-rate-limited` and the time the server named, without asking again.
   */
  maxRetryAfterMs: number;
  /** Smallest accepted width and height, in px. */
  minSidePx: number;
  /** Largest accepted width and height, in px. */
  maxSidePx: number;
  /** Largest accepted width × height, checked from the header before decoding (bomb guard). */
  maxPixels: number;
  /** Longest side of the UI thumbnail, in px (smaller images are not enlarged). */
  thumbnailSizePx: number;
  /** Sent on every request. */
  userAgent: string;
  /** Host name resolver; defaults to the system resolver (`dns.lookup`). */
  lookup?: HostLookup;
}

/** The app version sent in the User-Agent; a test keeps it equal to package.json. */
export const APP_VERSION = '0.1.0';

const MB = 1024 * 1024;

/** Defaults shared by every caller; Azure-like limits (sides 50..16 000 px). */
export const DEFAULT_INTAKE_OPTIONS: Readonly<IntakeOptions> = Object.freeze({
  allowLocalFiles: true,
  blockPrivateNetworks: false,
  allowedNetworks: [],
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxBytes: 20 * MB,
  maxRedirects: 5,
  maxRetries: 2,
  retryBaseDelayMs: 250,
  maxRetryDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
  minSidePx: 50,
  maxSidePx: 16_000,
  // 50 MP decodes to 150 MB of RGB: large camera photos pass, bombs do not.
  maxPixels: 50_000_000,
  thumbnailSizePx: 256,
  userAgent: `picscan/${APP_VERSION}`,
});

/** Where the input comes from decides the safe defaults. */
export type IntakeMode = 'desktop' | 'api';

/**
 * Builds options for a caller: `desktop` (app and CLI) reads local files and trusts the user's LAN;
 * `api` (HTTP server) never reads local files and blocks private networks.
 */
export function intakeOptions(mode: IntakeMode, overrides: Partial<IntakeOptions> = {}): IntakeOptions {
  const modeDefaults: Partial<IntakeOptions> =
    mode === 'api' ? { allowLocalFiles: false, blockPrivateNetworks: true } : { allowLocalFiles: true, blockPrivateNetworks: false };
  const merged = { ...DEFAULT_INTAKE_OPTIONS, ...modeDefaults, ...overrides };
  // The API server must never read the host's files, whatever the overrides say.
  return mode === 'api' ? { ...merged, allowLocalFiles: false } : merged;
}
