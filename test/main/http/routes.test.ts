import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { call, getQuery, postJson, realOperations, startApi, type ApiHarness } from './harness';

let images: FixtureServer;
let api: ApiHarness;
let key: string;
let revoked: string;
const ops = realOperations();

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/obama.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  // The real analyze and detect services over the real models, as `picscan serve` builds them.
  api = await startApi({ operations: ops });
  key = api.api.keys.create({ name: 'routes', tier: 'pro' }).key;
  const r = api.api.keys.create({ name: 'old', tier: 'basic' });
  api.api.keys.revoke(r.id);
  revoked = r.key;
});
afterAll(async () => {
  await api.close();
  await ops.close();
  await images.close();
});

const OPS = [
  { path: '/ai/vision/analyze', kind: 'analyze' },
  { path: '/ai/faces/detect', kind: 'detect' },
  { path: '/ai/faces/train', kind: 'detect' },
] as const;
const AUTH = ['missing', 'invalid', 'revoked', 'valid'] as const;

describe('every route × method × auth case', () => {
  for (const op of OPS) {
    for (const method of ['GET', 'POST'] as const) {
      for (const auth of AUTH) {
        it(`${method} ${op.path} with a ${auth} key`, async () => {
          const k = auth === 'missing' ? undefined : auth === 'invalid' ? 'psk_nope' : auth === 'revoked' ? revoked : key;
          const params = { image: images.url(op.kind === 'analyze' ? '/cat.jpg' : '/obama.jpg') };
          const res =
            method === 'GET'
              ? await getQuery(api.url + op.path, k ? { ...params, key: k } : params)
              : await postJson(api.url + op.path, params, k);
          expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f-]{36}$/);
          expect(res.json.trace_id).toBe(res.headers['x-trace-id']);
          if (auth !== 'valid') {
            expect(res.status).toBe(401);
            if (op.kind === 'analyze') expect(res.json).toMatchObject({ status: false, error: { code: 'Unauthorized' } });
            else expect(res.json).toMatchObject({ Errors: [{ ErrCode: 3003 }] });
            return;
          }
          expect(res.status).toBe(200);
          if (op.kind === 'analyze') {
            expect(res.json).toMatchObject({
              query: 'analyze',
              response: 'success',
              status: true,
              data: { metadata: { width: 451, height: 300, format: 'Jpeg' } },
            });
            const tx = res.json.transaction as { Id: string; Method: string };
            expect(tx.Method).toBe('credit');
            expect(tx.Id).toBe(res.headers['x-transaction-id']);
          } else {
            expect(res.json).toMatchObject({ images: [{ status: 'Complete', width: 455, height: 569, file: 'obama.jpg' }] });
            const faces = (res.json.images as Array<{ faces: Array<{ attributes: { gender: { type: string } } }> }>)[0]!.faces;
            expect(faces).toHaveLength(1);
            expect(faces[0]!.attributes.gender.type).toBe('M');
            expect(res.headers['x-transaction-id']).toBeTruthy();
          }
        });
      }
    }
  }
});

describe('bad parameter values', () => {
  const analyzeCases: Array<[string, Record<string, string>, number, string]> = [
    ['missing image', {}, 400, 'BadArgument'],
    ['unknown feature', { features: 'Tags,Sparkles' }, 400, 'NotSupportedVisualFeature'],
    ['unknown feature (singular spelling)', { feature: 'Nope' }, 400, 'NotSupportedVisualFeature'],
    ['unknown details', { details: 'Cars' }, 400, 'InvalidDetails'],
    // Captions are English only: a client asking for Spanish is told so, not answered in English.
    ['a language other than English', { language: 'es' }, 400, 'NotSupportedLanguage'],
    ['data URL', { image: 'data:image/png;base64,iVBORw0KGgo=' }, 400, 'InvalidImageUrl'],
    [
      'base64 image',
      { image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
      400,
      'InvalidImageUrl',
    ],
    ['not a URL', { image: 'ftp://example.com/a.jpg' }, 400, 'InvalidImageUrl'],
    ['unreachable URL', { image: 'http://127.0.0.1:1/a.jpg' }, 400, 'InvalidImageUrl'],
  ];
  it('analyze accepts language=en in any case, as the default it is', async () => {
    const res = await getQuery(api.url + '/ai/vision/analyze', { image: images.url('/cat.jpg'), features: 'Tags', language: 'EN', key });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: true, data: { tags: expect.any(Array) } });
  });

  for (const [name, params, status, code] of analyzeCases) {
    it(`analyze refuses ${name} (${code}) and charges nothing`, async () => {
      const before = api.api.keys.list().find((k) => k.name === 'routes')!.balanceMicrocents;
      const p = { image: images.url('/cat.jpg'), ...params };
      if (name === 'missing image') delete (p as Record<string, string>).image;
      const res = await getQuery(api.url + '/ai/vision/analyze', { ...p, key });
      expect(res.status).toBe(status);
      expect(res.json).toMatchObject({ status: false, error: { code }, transaction: { Id: '' } });
      expect(api.api.keys.list().find((k) => k.name === 'routes')!.balanceMicrocents).toBe(before);
    });
  }

  const detectCases: Array<[string, Record<string, unknown>, number]> = [
    ['missing image', { image: undefined }, 1002],
    ['minHeadScale below 0.015', { minHeadScale: 0.01 }, 1003],
    ['minHeadScale above 0.5', { minHeadScale: 0.6 }, 1003],
    ['minHeadScale not a number', { minHeadScale: 'big' }, 1003],
    ['unknown selector', { selector: 'SIDEWAYS' }, 1003],
    ['image not a string', { image: 42 }, 1003],
    ['data URL', { image: 'data:image/jpeg;base64,/9j/4AAQ' }, 5001],
  ];
  for (const [name, params, errCode] of detectCases) {
    it(`detect answers ${name} with HTTP 200 and ErrCode ${errCode}`, async () => {
      const res = await postJson(api.url + '/ai/faces/detect', { image: images.url('/cat.jpg'), ...params }, key);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ Errors: [{ ErrCode: errCode }] });
      expect(typeof (res.json.Errors as Array<{ Message: string }>)[0]!.Message).toBe('string');
    });
  }

  it('detect answers a minHeadScale nested too deep to quote with ErrCode 1003, not an internal error', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const res = await call(api.url + '/ai/faces/detect', {
      method: 'POST',
      headers: { 'content-type': 'application/json', key },
      body: `{"image": ${JSON.stringify(images.url('/cat.jpg'))}, "minHeadScale": ${deep}}`,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      Errors: [{ ErrCode: 1003, Message: '`minHeadScale` must be a number from 0.015 to 0.5; got an array.' }],
    });
  });

  it('accepts valid values: minHeadScale bounds, selector lists in any case, features in any case', async () => {
    for (const body of [{ minHeadScale: 0.015 }, { minHeadScale: '0.5', selector: 'roll' }, { selector: ['frontal', 'ROLL'] }]) {
      const res = await postJson(api.url + '/ai/faces/detect', { image: images.url('/obama.jpg'), ...body }, key);
      expect(res.json).toHaveProperty('images');
    }
    const res = await getQuery(api.url + '/ai/vision/analyze', {
      image: images.url('/cat.jpg'),
      features: 'tags, color',
      details: 'landmarks',
      key,
    });
    expect(res.status).toBe(200);
  });
});

describe('real models: detect with no faces', () => {
  it('answers 5002 with HTTP 200 and charges it (the image was processed)', async () => {
    const k = api.api.keys.create({ name: 'noface', tier: 'basic' });
    const res = await postJson(api.url + '/ai/faces/detect', { image: images.url('/cat.jpg') }, k.key);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ Errors: [{ ErrCode: 5002 }] });
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(1_500_000_000 - 3_000);
  });
});

describe('transport errors', () => {
  it('malformed JSON → 400 in each route format', async () => {
    const bad = { method: 'POST' as const, headers: { 'content-type': 'application/json', key }, body: '{"image": ' };
    const a = await call(api.url + '/ai/vision/analyze', bad);
    expect(a.status).toBe(400);
    expect(a.json).toMatchObject({ status: false, error: { code: 'BadArgument', message: 'The body is not valid JSON.' } });
    const d = await call(api.url + '/ai/faces/detect', bad);
    expect(d.status).toBe(400);
    expect(d.json).toMatchObject({ Errors: [{ ErrCode: 1003, Message: expect.stringMatching(/not valid JSON/) }] });
    // A prototype key is refused by the parser, said the same way (never a framework code).
    const proto = await call(api.url + '/ai/vision/analyze', {
      ...bad,
      body: '{"__proto__": {"x": 1}, "image": "https://example.com/a.jpg"}',
    });
    expect(proto.status).toBe(400);
    expect(JSON.stringify(proto.json)).not.toMatch(/FST_/);
    const arr = await call(api.url + '/ai/vision/analyze', { ...bad, body: '["x"]' });
    expect(arr.status).toBe(400);
  });

  it('a body over the limit → 413', async () => {
    const res = await postJson(api.url + '/ai/vision/analyze', { image: 'https://example.com/' + 'a'.repeat(70_000) }, key);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ status: false, error: { code: 'PayloadTooLarge' } });
  });

  it('file uploads and raw bytes are refused with 415 and a clear message', async () => {
    const form = await call(api.url + '/ai/vision/analyze', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', key },
      body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc\r\n--x--\r\n',
    });
    expect(form.status).toBe(415);
    expect(form.json).toMatchObject({ error: { code: 'UnsupportedMediaType', message: expect.stringMatching(/uploads/) } });
    const raw = await call(api.url + '/ai/faces/detect', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', key },
      body: 'abc',
    });
    expect(raw.status).toBe(415);
    expect(raw.json).toMatchObject({ Errors: [{ ErrCode: 1001 }] });
  });

  it('reads a JSON body with __proto__ or constructor.prototype keys without them: no pollution, no "not valid JSON"', async () => {
    const res = await call(`${api.url}/ai/vision/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', key },
      body: `{"image": ${JSON.stringify(images.url('/cat.jpg'))}, "features": "Color", "__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}`,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: true, data: { color: { isBWImg: false } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('unknown routes → 404 JSON with a trace id', async () => {
    for (const [method, path] of [
      ['GET', '/ai/vision/describe'],
      ['PUT', '/ai/vision/describe'],
      ['GET', '/ai/vision/analyze/extra'],
      ['GET', '/'],
    ] as const) {
      const res = await call(api.url + path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toMatchObject({ error: { code: 'NotFound' } });
      expect(res.json.trace_id).toBe(res.headers['x-trace-id']);
    }
  });

  it("another method on an operation → 405 with Allow: GET, POST in the operation's shape, never charged", async () => {
    const k = api.api.keys.create({ name: 'methods', tier: 'basic' });
    const before = api.api.keys.get(k.id).balanceMicrocents;
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      const analyze = await call(`${api.url}/ai/vision/analyze?key=${k.key}`, { method });
      expect(analyze.status, method).toBe(405);
      expect(analyze.headers['allow']).toBe('GET, POST');
      expect(analyze.json).toMatchObject({
        status: false,
        error: { code: 'MethodNotAllowed', message: `${method} is not served on this path; use GET or POST.` },
      });
      const detect = await call(`${api.url}/ai/faces/detect?key=${k.key}`, { method });
      expect(detect.status, method).toBe(405);
      expect(detect.headers['allow']).toBe('GET, POST');
      expect(detect.json).toMatchObject({ Errors: [{ ErrCode: 3002 }] });
    }
    // HEAD is no GET here (it would run and charge an analysis for headers); no body either.
    const head = await call(`${api.url}/ai/vision/analyze?key=${k.key}&image=${encodeURIComponent(images.url('/obama.jpg'))}`, {
      method: 'HEAD',
    });
    expect(head.status).toBe(405);
    expect(head.headers['allow']).toBe('GET, POST');
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(before);
  });
});
