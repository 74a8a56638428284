import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forwardedHops, normalizeIp, parseTrustedProxies, resolveClientIp } from '@/lib/net/client-ip';

const none = parseTrustedProxies([]);
const proxies = parseTrustedProxies(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);

function resolve(peer: string | null, headers: Record<string, string>, trusted = proxies) {
  return resolveClientIp({ peer, headers: new Headers(headers), trusted });
}

describe('resolveClientIp', () => {
  it('without trusted proxies uses the socket address and ignores every forwarding header', () => {
    const spoof = { 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '5.6.7.8', forwarded: 'for=9.9.9.9' };
    expect(resolve('203.0.113.5', spoof, none)).toBe('203.0.113.5');
    expect(resolve('::ffff:203.0.113.5', spoof, none)).toBe('203.0.113.5');
    expect(resolve('127.0.0.1', spoof, none)).toBe('127.0.0.1');
    // no socket address and nothing trusted: unknown, never a header
    expect(resolve(null, spoof, none)).toBeNull();
  });

  it('a request from an untrusted peer keeps its own address even with proxies configured', () => {
    expect(resolve('203.0.113.5', { 'x-forwarded-for': '10.1.1.1' })).toBe('203.0.113.5');
  });

  it('behind trusted proxies takes the right-most hop that is not a trusted proxy', () => {
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '198.51.100.7' })).toBe('198.51.100.7');
    // the client prepended a fake hop: the proxy appended the real one to the right
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' })).toBe('198.51.100.7');
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.3.3.3, 192.168.1.7' })).toBe(
      '198.51.100.7',
    );
    expect(resolve('192.168.1.7', { forwarded: 'for=6.6.6.6, for="[2001:db8::17]:4711";proto=https' })).toBe(
      '2001:db8::17',
    );
    expect(resolve('10.0.0.2', { 'x-real-ip': '198.51.100.8' })).toBe('198.51.100.8');
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '198.51.100.7:5123' })).toBe('198.51.100.7');
  });

  it('a garbage hop ends the chain at the proxy itself; no header means the proxy', () => {
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '198.51.100.7, unknown' })).toBe('10.0.0.2');
    expect(resolve('10.0.0.2', {})).toBe('10.0.0.2');
    expect(resolve('10.0.0.2', { 'x-forwarded-for': '10.9.9.9' })).toBe('10.9.9.9');
  });

  it('without a socket address, forwarding headers count only when proxies are configured', () => {
    expect(resolve(null, { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' })).toBe('198.51.100.7');
    expect(resolve(null, { 'x-forwarded-for': '198.51.100.7' }, none)).toBeNull();
  });

  it('an untrusted peer can never choose its address, whatever it sends', () => {
    const header = fc.string({ maxLength: 80 });
    fc.assert(
      fc.property(header, header, header, (xff, fwd, real) => {
        const headers = { 'x-forwarded-for': xff, forwarded: fwd, 'x-real-ip': real };
        expect(resolve('203.0.113.77', headers)).toBe('203.0.113.77');
        expect(resolve('203.0.113.77', headers, none)).toBe('203.0.113.77');
      }),
    );
  });
});

describe('parseTrustedProxies', () => {
  it.each(['10.0.0.0/33', 'not-an-ip', '10.0.0.0/', '10.0.0.0/x', '::1/129', '300.1.1.1'])('refuses %j', (entry) => {
    expect(() => parseTrustedProxies([entry])).toThrow(entry);
  });

  it('matches IPv4 ranges for IPv4-mapped IPv6 addresses too', () => {
    expect(proxies.has('10.200.1.1')).toBe(true);
    expect(proxies.has('::ffff:10.200.1.1')).toBe(true);
    expect(proxies.has('192.168.1.8')).toBe(false);
    expect(proxies.has('fd12::1')).toBe(true);
    expect(proxies.has('garbage')).toBe(false);
  });
});

describe('normalizeIp and forwardedHops', () => {
  it.each([
    ['[2001:DB8::1]:443', '2001:db8::1'],
    ['"[::1]"', '::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['1.2.3.4:80', '1.2.3.4'],
    ['unknown', null],
    ['_hidden', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeIp(input)).toBe(expected);
  });

  it('prefers X-Forwarded-For, then Forwarded, then X-Real-IP', () => {
    expect(forwardedHops(new Headers({ 'x-forwarded-for': 'a, b', forwarded: 'for=c' }))).toEqual(['a', 'b']);
    expect(forwardedHops(new Headers({ forwarded: 'proto=https;for=c, by=x', 'x-real-ip': 'd' }))).toEqual(['c', '']);
    expect(forwardedHops(new Headers({ 'x-real-ip': 'd' }))).toEqual(['d']);
    expect(forwardedHops(new Headers())).toEqual([]);
  });
});
