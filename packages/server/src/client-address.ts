import { BlockList, isIP } from 'node:net';

/** An IPv4 address written as IPv4-mapped IPv6 (`::ffff:1.2.3.4`) reads as the IPv4 address. */
function plain(address: string): string {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return mapped ? (mapped[1] as string) : bare;
}

/**
 * The list of `OPENMATES_TRUST_PROXY`: addresses and CIDR subnets (`10.0.0.0/8`, `::1`). Throws an
 * Error naming the variable and the bad entry.
 */
export function parseTrustedProxies(value: string | undefined): BlockList | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(plain(address));
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 4 ? 32 : 128;
    if (family === 0 || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits)))
      throw new Error(`OPENMATES_TRUST_PROXY: "${entry}" is not an IP address or CIDR subnet`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(plain(address), type);
    else list.addSubnet(plain(address), prefix, type);
  }
  return list;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address for keyless rate limiting. Only when the connection comes from a trusted
 * proxy is `X-Forwarded-For` read, from the right (each proxy appends the peer it saw): the first
 * address that is not itself a trusted proxy is the client. Anything unparsable ends the walk, so a
 * client cannot forge its way past the proxies.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  proxies: BlockList | undefined,
): string | undefined {
  const direct = peer === undefined || peer === '' ? undefined : plain(peer);
  if (!proxies || direct === undefined || !trusted(proxies, direct) || !forwardedFor) return direct;
  const hops = forwardedFor.split(',').map(plain);
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) break;
    client = hop;
    if (!trusted(proxies, hop)) break;
  }
  return client;
}
