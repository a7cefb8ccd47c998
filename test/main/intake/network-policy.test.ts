import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedRangeOf, loadImage, type HostLookup } from '../../../src-main/intake';
import { fixture } from '../../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { expectAppError, testOptions } from './support';

const CAT = fixture('cat_chelsea.jpg');

/** A resolver from a fixed table: no real DNS in tests. */
const table =
  (entries: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const addresses = entries[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is blocked as %s', (address, range) => {
    expect(blockedRangeOf(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(blockedRangeOf(address)).toBeNull();
  });
});

describe('private-network policy on fetches', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    server.route('/cat.jpg', { file: CAT });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is on by default for the API and off for the desktop app', async () => {
    await expectAppError(loadImage(server.url('/cat.jpg'), testOptions('api')), 'blocked-address');
    const img = await loadImage(server.url('/cat.jpg'), testOptions('desktop'));
    expect(img.metadata.width).toBe(451);
  });

  it('refuses a host name that resolves to 127.0.0.1 without connecting', async () => {
    const before = server.hits('/cat.jpg');
    const lookup = table({ 'images.example': ['127.0.0.1'] });
    const url = `http://images.example:${server.port}/cat.jpg`;
    const err = await expectAppError(loadImage(url, testOptions('api', { lookup })), 'blocked-address');
    expect(err.details).toMatchObject({ address: '127.0.0.1', range: 'loopback' });
    expect(err.message).toContain(url);
    expect(err.message).toContain('loopback');
    expect(server.hits('/cat.jpg')).toBe(before);
    // The same resolution with the policy off connects (the lookup, not the URL, decided).
    const img = await loadImage(url, testOptions('desktop', { lookup }));
    expect(img.metadata.width).toBe(451);
  });

  it('refuses localhost from the system resolver', async () => {
    await expectAppError(loadImage(`http://localhost:${server.port}/cat.jpg`, testOptions('api')), 'blocked-address');
  });

  it('refuses a host if any of its addresses is private (no pick-the-public-one games)', async () => {
    const lookup = table({ 'mixed.example': ['93.184.216.34', '10.0.0.7'] });
    const err = await expectAppError(
      loadImage(`http://mixed.example:${server.port}/cat.jpg`, testOptions('api', { lookup })),
      'blocked-address',
    );
    expect(err.details).toMatchObject({ address: '10.0.0.7', range: 'private' });
  });

  it('checks every connection, so a rebinding resolver cannot slip through on a later hop', async () => {
    let calls = 0;
    // First answer is exempt (the test server), every later one is the metadata address.
    const rebinding: HostLookup = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
    server.route('/hop', { redirectTo: `http://rebind.example:${server.port}/cat.jpg` });
    const opts = testOptions('api', { lookup: rebinding, allowedNetworks: ['127.0.0.1/32'] });
    const err = await expectAppError(loadImage(`http://first.example:${server.port}/hop`, opts), 'blocked-address');
    expect(err.details).toMatchObject({ range: 'metadata' });
  });

  it.each([
    ['a literal private IPv4', 'http://10.0.0.1/cat.jpg', 'private'],
    ['a literal IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.2]/cat.jpg', 'loopback'],
    ['a literal IPv6 link-local', 'http://[fe80::1]/cat.jpg', 'link-local'],
    ['a host resolving to the metadata address', 'http://metadata.example/latest/meta-data', 'metadata'],
  ])('refuses a redirect to %s', async (_name, target, range) => {
    const path = `/redirect-${range}-${target.length}`;
    server.route(path, { redirectTo: target });
    const lookup = table({ 'public.example': ['127.0.0.1'], 'metadata.example': ['169.254.169.254'] });
    // 127.0.0.1 is exempt so the test server can play the public first hop.
    const opts = testOptions('api', { lookup, allowedNetworks: ['127.0.0.1'] });
    const start = Date.now();
    const err = await expectAppError(loadImage(`http://public.example:${server.port}${path}`, opts), 'blocked-address');
    expect(err.details).toMatchObject({ range });
    expect(server.hits(path)).toBe(1);
    expect(Date.now() - start).toBeLessThan(1000); // refused before any connection attempt
  });

  it('refuses literal addresses in the input URL', async () => {
    await expectAppError(loadImage('http://169.254.169.254/latest/meta-data/', testOptions('api')), 'blocked-address');
    await expectAppError(loadImage('http://[::1]/x.jpg', testOptions('api')), 'blocked-address');
    await expectAppError(loadImage('http://0x7f.1/x.jpg', testOptions('api')), 'blocked-address'); // WHATWG: 127.0.0.1
  });

  it('names the range with its article in the message ("an unspecified address")', async () => {
    const literal = await expectAppError(loadImage('http://0.0.0.0/x.jpg', testOptions('api')), 'blocked-address');
    expect(literal.message).toContain('0.0.0.0 is an unspecified address.');
    const lookup = table({ 'zero.example': ['0.0.0.0'], 'home.example': ['127.0.0.1'] });
    const resolved = await expectAppError(loadImage('http://zero.example/x.jpg', testOptions('api', { lookup })), 'blocked-address');
    expect(resolved.message).toContain('resolves to 0.0.0.0, an unspecified address.');
    const loopback = await expectAppError(loadImage('http://home.example/x.jpg', testOptions('api', { lookup })), 'blocked-address');
    expect(loopback.message).toContain('resolves to 127.0.0.1, a loopback address.');
  });

  it('reports an unknown host as image-fetch-failed', async () => {
    const err = await expectAppError(
      loadImage('http://nowhere.example/x.jpg', testOptions('api', { lookup: table({}) })),
      'image-fetch-failed',
    );
    expect(err.message).toContain('could not be resolved');
  });
});
