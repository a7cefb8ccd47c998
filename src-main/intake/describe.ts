/** How inputs are named in user-facing messages: never credentials, never megabytes of data: URL. */

const MAX_SHOWN_CHARS = 200;

/** A URL as it may appear in a message or log: credentials removed, long ones shortened. */
export function describeUrl(url: URL): string {
  let shown: string;
  if (url.protocol === 'data:') {
    shown = 'data:…';
  } else if (url.username || url.password) {
    const copy = new URL(url.href);
    copy.username = '';
    copy.password = '';
    shown = copy.href;
  } else {
    shown = url.href;
  }
  return shorten(shown);
}

/** A raw input string that did not parse as a URL, shortened and without any `user:pass@`. */
export function describeRawInput(input: string): string {
  return shorten(input.replace(/\/\/[^/?#]*@/, '//'));
}

function shorten(text: string): string {
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS - 1)}…` : text;
}

/** Human byte size for messages, e.g. `20 MB`, `512 KB`, `17 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${round1(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${round1(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Human duration for messages, e.g. `30 s`, `250 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${round1(ms / 1000)} s` : `${ms} ms`;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
