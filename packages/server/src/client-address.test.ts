import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address.ts';

describe('OPENMATES_TRUST_PROXY and the client address', () => {
  const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8, ::1');

  it('ignores X-Forwarded-For unless the connection comes from a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', proxies)).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', '198.51.100.1', undefined)).toBe('127.0.0.1');
  });

  it('reads X-Forwarded-For from the right, stopping at the first address that is not a proxy', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', proxies)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3', proxies)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', 'not-an-address, 10.1.2.3', proxies)).toBe('10.1.2.3');
    expect(clientAddress('::1', '', proxies)).toBe('::1');
  });

  it('refuses an entry that is not an address or subnet, naming the variable', () => {
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/OPENMATES_TRUST_PROXY: "10.0.0.0\/33"/);
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(/OPENMATES_TRUST_PROXY/);
    expect(parseTrustedProxies(' , ')).toBeUndefined();
  });
});
