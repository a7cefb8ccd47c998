import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeOperations, startApi, type ApiHarness } from './harness';
import { rawExchange } from './raw-exchange';

let api: ApiHarness;
let key: string;
const logLines: string[] = [];
const capture = (msg: string, fields?: Record<string, unknown>): void => void logLines.push(`${msg} ${JSON.stringify(fields ?? {})}`);

beforeAll(async () => {
  api = await startApi({ operations: intakeOperations(), logger: { debug: capture, info: capture, warn: capture, error: capture } });
  key = api.api.keys.create({ name: 'secret', tier: 'pro' }).key;
});
afterAll(() => api.close());

type Family = 'analyze' | 'detect' | 'generic';
const head = (requestLine: string, extra = ''): string => `${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;
const json = (body: string, extra = ''): string =>
  `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

// Each: a request that fails before or outside the operation, the status and the body shape expected.
const CASES = (k: string): Array<{ name: string; raw: string; status: number; family: Family; code?: string | number }> => [
  {
    name: 'bad percent-encoding in the analyze path',
    raw: head(`GET /ai/vision/analyze%E0%A4%A?key=${k} HTTP/1.1`),
    status: 400,
    family: 'analyze',
    code: 'BadRequest',
  },
  {
    name: 'bad percent-encoding in the detect path',
    raw: head(`GET /ai/faces/detect%E0%A4%A?key=${k}&image=x HTTP/1.1`),
    status: 400,
    family: 'detect',
    code: 1003,
  },
  {
    name: 'bad percent-encoding elsewhere',
    raw: head(`GET /ai/%E0%A4%A?key=${k} HTTP/1.1`),
    status: 400,
    family: 'generic',
    code: 'BadRequest',
  },
  { name: 'a space in the request target', raw: head(`GET /ai/vision/analyze?key=${k} x HTTP/1.1`), status: 400, family: 'analyze' },
  { name: 'an unknown HTTP version', raw: head(`GET /ai/faces/detect?key=${k} HTTP/7.1`), status: 400, family: 'detect' },
  {
    name: 'a header name with a space',
    raw: head(`GET /ai/vision/analyze?key=${k} HTTP/1.1`, 'Bad Header: 1\r\n'),
    status: 400,
    family: 'analyze',
  },
  {
    name: 'a non-numeric Content-Length',
    raw: head(`POST /ai/faces/detect?key=${k} HTTP/1.1`, 'Content-Length: ten\r\n'),
    status: 400,
    family: 'detect',
  },
  {
    name: 'a request head over the size limit',
    raw: head(`GET /ai/vision/analyze?key=${k} HTTP/1.1`, `X-Pad: ${'a'.repeat(20_000)}\r\n`),
    status: 431,
    family: 'analyze',
  },
  {
    name: 'a JSON body that quotes the key',
    raw: head(`POST /ai/vision/analyze HTTP/1.1`, `key: ${k}\r\n` + json(`{"image": ${k}}`)).replace(/\r\n\r\n$/, ''),
    status: 400,
    family: 'analyze',
    code: 'BadArgument',
  },
  {
    name: 'the key in an unknown path',
    raw: head(`GET /ai/vision/${k}?key=${k} HTTP/1.1`),
    status: 404,
    family: 'generic',
    code: 'NotFound',
  },
  {
    name: 'the key in a path under detect',
    raw: head(`GET /ai/faces/detect/${k}?key=${k} HTTP/1.1`),
    status: 404,
    family: 'detect',
    code: 3002,
  },
  {
    // `null` is a JSON body that is not an object: refused like `42` or `[]`, not read as no body.
    name: 'a JSON null body',
    raw: head(`POST /ai/faces/detect?key=${k}&image=http://127.0.0.1:1/a.jpg HTTP/1.1`, json('null')),
    status: 400,
    family: 'detect',
    code: 1003,
  },
  // Requests Node's HTTP server used to answer itself, with an empty body and no trace id.
  {
    name: 'an HTTP/1.1 request without a Host header',
    raw: `GET /ai/vision/analyze?key=${k} HTTP/1.1\r\nConnection: close\r\n\r\n`,
    status: 400,
    family: 'analyze',
    code: 'BadRequest',
  },
  {
    name: 'an Expect header other than 100-continue',
    raw: head(`POST /ai/faces/detect?key=${k} HTTP/1.1`, 'Expect: 200-ok\r\n' + json('{"image": "https://example.com/a.jpg"}')),
    status: 417,
    family: 'detect',
    code: 1003,
  },
  {
    name: 'a CONNECT request (this server is no proxy)',
    raw: `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nkey: ${k}\r\n\r\n`,
    status: 404,
    family: 'generic',
    code: 'NotFound',
  },
  {
    name: 'an unsupported body type',
    raw: head(`POST /ai/faces/detect?key=${k} HTTP/1.1`, 'Content-Type: text/html\r\nContent-Length: 2\r\n') + 'hi',
    status: 415,
    family: 'detect',
    code: 1001,
  },
];

describe('error replies never echo the key or the query, and always carry a trace id', () => {
  it('has a case for every request form', () => expect(CASES('k')).toHaveLength(16));
  for (const c of CASES('KEY')) {
    it(`${c.name} → ${c.status} in the ${c.family} shape`, async () => {
      const raw = CASES(key).find((x) => x.name === c.name)!.raw;
      logLines.length = 0;
      const res = await rawExchange(api.url, raw);
      expect(res.status).toBe(c.status);
      const body = JSON.parse(res.text) as Record<string, unknown>;
      expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.trace_id).toBe(res.headers['x-trace-id']);
      if (c.family === 'analyze') {
        expect(body).toMatchObject({ query: 'analyze', status: false, error: { code: c.code ?? expect.any(String) } });
      } else if (c.family === 'detect') {
        expect(body).toMatchObject({ Errors: [{ ErrCode: c.code ?? expect.any(Number), Message: expect.any(String) }] });
      } else {
        expect(body).toMatchObject({ error: { code: c.code ?? expect.any(String), message: expect.any(String) } });
      }
      const secret = key.slice('psk_'.length);
      const everything = `${JSON.stringify(res.headers)}\n${res.text}`;
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain('key=');
      // Give a closing connection's log line time to be written, then check the log too.
      await new Promise((r) => setTimeout(r, 50));
      expect(logLines.length).toBeGreaterThan(0);
      for (const line of logLines) {
        expect(line).not.toContain(secret);
        expect(line).not.toContain('?');
      }
    });
  }

  it('undici: a GET with a malformed URL is answered in the analyze shape without the key', async () => {
    const res = await request(`${api.url}/ai/vision/analyze%E0%A4%A?key=${key}`);
    const text = await res.body.text();
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ status: false, error: { code: 'BadRequest' }, trace_id: res.headers['x-trace-id'] });
    expect(text).not.toContain(key.slice(4));
  });
});

describe('requests not received in time are answered 408 in their route family shape', () => {
  let slow: ApiHarness;
  beforeAll(async () => {
    slow = await startApi({
      operations: intakeOperations(),
      timeouts: { headersTimeoutMs: 500, requestTimeoutMs: 1_000, checkIntervalMs: 100 },
    });
  });
  afterAll(() => slow.close());

  /**
   * Sends `first` (if any) and waits for its reply, then `partial`, dripping `drip` every 100 ms,
   * until the server closes; the last reply on the connection.
   */
  function timeOut(partial: string, opts: { first?: string; drip?: string } = {}): Promise<{ status: number; body: unknown }> {
    const { hostname, port } = new URL(slow.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let out = '';
      let timer: NodeJS.Timeout | undefined;
      const sendPartial = (): void => {
        socket.write(partial);
        if (opts.drip) timer = setInterval(() => socket.writable && socket.write(opts.drip!), 100);
      };
      socket.setEncoding('latin1');
      socket.on('error', () => undefined);
      socket.on('data', (d: string) => {
        const before = out;
        out += d;
        // The first request's reply arrived: the connection is idle, send the slow request.
        if (opts.first && !before) setTimeout(sendPartial, 100);
      });
      socket.on('connect', () => (opts.first ? socket.write(opts.first) : sendPartial()));
      socket.on('close', () => {
        clearInterval(timer);
        const last = out.slice(out.lastIndexOf('HTTP/1.1 '));
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(last)?.[1]);
        if (!status) return reject(new Error(`no HTTP reply: ${JSON.stringify(out.slice(0, 200))}`));
        resolve({ status, body: JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4)) as unknown });
      });
    });
  }

  it('a detect body that stops arriving → 408 in the Kairos shape', async () => {
    const res = await timeOut(
      'POST /ai/faces/detect HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"im',
    );
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ Errors: [{ ErrCode: 1003, Message: expect.stringContaining('not received in time') }] });
  });

  it('an analyze head that trickles past the header timeout → 408 in the analyze envelope', async () => {
    const res = await timeOut('POST /ai/vision/analyze HTTP/1.1\r\nHost: x\r\n', { drip: 'X-A: b\r\n' });
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ query: 'analyze', status: false, error: { code: 'Timeout' } });
  });

  it('on a kept-alive connection, the slow second request names its own route, not the first', async () => {
    const first = 'GET /ai/vision/analyze HTTP/1.1\r\nHost: x\r\n\r\n';
    const res = await timeOut('POST /ai/faces/detect HTTP/1.1\r\nHost: x\r\n', { first, drip: 'X-A: b\r\n' });
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ Errors: [{ ErrCode: 1003 }] });
  });

  it('a connection whose request line never arrives → 408 in the generic shape', async () => {
    const res = await timeOut('POST /ai/faces/de');
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ error: { code: 'Timeout', message: expect.any(String) } });
  });
});
