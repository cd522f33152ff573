// A minimal PNG encoder and decoder on node:zlib, for the app icons (scripts/icons.ts) and the tests
// that check them. 8-bit RGB or RGBA, no interlacing: what the icons use, and all this reads.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG colour types this module writes and reads. */
const CHANNELS = { 2: 3, 6: 4 } as const;
type ColorType = keyof typeof CHANNELS;

/** An 8-bit image: `channels` bytes per pixel (3 = RGB, 4 = RGBA), rows top to bottom. */
export interface Image {
  width: number;
  height: number;
  channels: 3 | 4;
  pixels: Uint8Array;
}

/** What the IHDR chunk says, read without decoding the image. */
export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/**
 * Encodes an image as PNG (every row with filter 0: the icons are flat colour and deflate well).
 * `text` becomes tEXt chunks (Latin-1 keyword and value), such as the `Software` that made it.
 */
export function encodePng({ width, height, channels, pixels }: Image, text: Record<string, string> = {}): Buffer {
  if (pixels.length !== width * height * channels) throw new Error('encodePng: pixels do not match the size');
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    ...Object.entries(text).map(([keyword, value]) => chunk('tEXt', Buffer.from(`${keyword}\0${value}`, 'latin1'))),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** The chunks of a PNG file, each checked against its CRC. Throws on anything that is not a PNG. */
function* chunks(file: Uint8Array): Generator<{ type: string; data: Buffer }> {
  const buffer = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buffer.length < 8 || !buffer.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: no PNG signature');
  let offset = 8;
  while (offset + 12 <= buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (end > buffer.length) throw new Error('not a PNG: a chunk runs past the end');
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (crc32(buffer.subarray(offset + 4, offset + 8 + length)) !== buffer.readUInt32BE(offset + 8 + length))
      throw new Error(`not a PNG: the ${type} chunk fails its CRC`);
    yield { type, data };
    if (type === 'IEND') return;
    offset = end;
  }
  throw new Error('not a PNG: no IEND chunk');
}

/** Reads the IHDR chunk (the first one, as the format requires). */
export function readPngHeader(file: Uint8Array): PngHeader {
  const first = chunks(file).next();
  if (first.done || first.value.type !== 'IHDR' || first.value.data.length !== 13)
    throw new Error('not a PNG: the first chunk is not IHDR');
  const { data } = first.value;
  return {
    width: data.readUInt32BE(0),
    height: data.readUInt32BE(4),
    bitDepth: data[8] as number,
    colorType: data[9] as number,
  };
}

/** The tEXt chunks of a PNG, keyword to value. */
export function readPngText(file: Uint8Array): Record<string, string> {
  const text: Record<string, string> = {};
  for (const { type, data } of chunks(file)) {
    if (type !== 'tEXt') continue;
    const split = data.indexOf(0);
    if (split > 0) text[data.toString('latin1', 0, split)] = data.toString('latin1', split + 1);
  }
  return text;
}

/** Decodes an 8-bit RGB or RGBA PNG without interlacing (any of the five row filters). */
export function decodePng(file: Uint8Array): Image {
  const header = readPngHeader(file);
  const channels = CHANNELS[header.colorType as ColorType];
  if (header.bitDepth !== 8 || channels === undefined) throw new Error('decodePng: only 8-bit RGB or RGBA');
  const idat: Buffer[] = [];
  for (const { type, data } of chunks(file)) if (type === 'IDAT') idat.push(data);
  const raw = inflateSync(Buffer.concat(idat));
  const { width, height } = header;
  const stride = width * channels;
  if (raw.length !== (stride + 1) * height) throw new Error('decodePng: the image data does not match the size');
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (pixels[out + x - channels] as number) : 0;
      const b = y > 0 ? (pixels[out - stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (pixels[out - stride + x - channels] as number) : 0;
      const value = row[x] as number;
      pixels[out + x] = (value + predict(filter, a, b, c)) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

function predict(filter: number | undefined, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`decodePng: unknown row filter ${filter}`);
  }
}
