import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPLE_TOUCH_ICON, allIcons, GENERATOR, manifestIcons, STATIC_DIR, sizeOf } from './app-icons.ts';
import { decodePng, encodePng, readPngHeader, readPngText } from './png.ts';

describe('the app icons', () => {
  it('are committed exactly as scripts/app-icons.ts draws them (run it after changing the manifest)', () => {
    for (const { file, image } of allIcons()) {
      const bytes = readFileSync(`${STATIC_DIR}${file}`);
      expect(readPngText(bytes), file).toEqual({ Software: GENERATOR });
      const committed = decodePng(bytes);
      expect({ file, width: committed.width, channels: committed.channels }).toEqual({
        file,
        width: image.width,
        channels: image.channels,
      });
      expect(Buffer.from(committed.pixels).equals(Buffer.from(image.pixels)), `static/${file} has drifted`).toBe(true);
    }
  });

  it('cover what the manifest and Safari need: 192 and 512 px, a maskable 512 px, a 180 px apple-touch-icon', () => {
    const icons = manifestIcons();
    const any = icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes('any')).map(sizeOf);
    const maskable = icons.filter((icon) => icon.purpose?.split(' ').includes('maskable')).map(sizeOf);
    expect(any.sort((a, b) => a - b)).toEqual([192, 512]);
    expect(maskable).toEqual([512]);
    expect(icons.every((icon) => icon.type === 'image/png')).toBe(true);
    expect(readPngHeader(readFileSync(`${STATIC_DIR}${APPLE_TOUCH_ICON.src.slice(1)}`))).toMatchObject({
      width: 180,
      height: 180,
      colorType: 2, // opaque: iOS fills a transparent corner with black
    });
  });

  it('a maskable icon keeps the magnifier inside the central 40 % circle, so any mask shape leaves it whole', () => {
    for (const { file, image } of allIcons().filter(({ file }) => file.includes('maskable'))) {
      const centre = image.width / 2;
      let farthest = 0;
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) {
          const at = (y * image.width + x) * image.channels;
          if ((image.pixels[at] as number) > 0x1d)
            farthest = Math.max(farthest, Math.hypot(x + 0.5 - centre, y + 0.5 - centre));
        }
      expect(farthest / image.width, file).toBeLessThan(0.4);
    }
  });
});

describe('the PNG codec', () => {
  it('round-trips RGB and RGBA images and reads the header without decoding', () => {
    for (const channels of [3, 4] as const) {
      const pixels = Uint8Array.from({ length: 5 * 3 * channels }, (_, i) => (i * 37) % 256);
      const file = encodePng({ width: 5, height: 3, channels, pixels }, { Software: 'a test', Comment: 'two' });
      expect(readPngText(file)).toEqual({ Software: 'a test', Comment: 'two' });
      expect(readPngHeader(file)).toEqual({ width: 5, height: 3, bitDepth: 8, colorType: channels === 4 ? 6 : 2 });
      expect(decodePng(file)).toEqual({ width: 5, height: 3, channels, pixels });
    }
  });

  it('refuses what is not a PNG, and a chunk whose CRC does not match', () => {
    expect(() => readPngHeader(Buffer.from('GIF89a not a png'))).toThrow('no PNG signature');
    const file = encodePng({ width: 1, height: 1, channels: 3, pixels: new Uint8Array(3) });
    file[20] = (file[20] as number) ^ 0xff; // inside IHDR's data
    expect(() => readPngHeader(file)).toThrow('the IHDR chunk fails its CRC');
  });
});
