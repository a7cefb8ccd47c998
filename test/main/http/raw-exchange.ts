import { connect } from 'node:net';

/** A reply read off a raw socket: status, headers (names lower-cased) and the body text. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One exchange on a raw socket (requests no HTTP client would send); the server closes after it. */
export function rawExchange(url: string, text: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head = '', ...rest] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
      if (!status) return reject(new Error(`no HTTP reply: ${JSON.stringify(out.slice(0, 200))}`));
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status, headers, text: rest.join('\r\n\r\n') });
    });
  });
}
