const HEX = '0123456789abcdef';

/**
 * A new request id, in the form of a version-4 UUID. The id only ties an answer to its log lines
 * and guards nothing, so `Math.random` (which V8 seeds from the operating system's entropy) is
 * random enough; Web Crypto's `crypto` global would load node's crypto and stream modules in
 * every cold `openmates search` (packages/cli/README.md, "Cold start"; ADR 0070).
 */
export function newRequestId(): string {
  let id = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) id += '-';
    else if (i === 14) id += '4';
    else if (i === 19) id += HEX[8 + Math.floor(Math.random() * 4)];
    else id += HEX[Math.floor(Math.random() * 16)];
  }
  return id;
}
