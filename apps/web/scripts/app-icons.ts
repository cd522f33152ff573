// Draws the app's PNG icons from the favicon's design (static/favicon.svg: a blue rounded square with
// a white magnifier). The web app manifest (static/manifest.webmanifest) declares which icons exist,
// their sizes and purposes; this draws each one it lists, plus the 180 px apple-touch-icon Safari
// reads from the page. `node apps/web/scripts/app-icons.ts` rewrites them; scripts/app-icons.test.ts
// fails when a committed icon differs from what this draws.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodePng, type Image } from './png.ts';

export const STATIC_DIR = fileURLToPath(new URL('../static/', import.meta.url));

/** Written into each icon's `Software` text chunk: a generated file names its generator. */
export const GENERATOR = 'apps/web/scripts/app-icons.ts (generated: run it, do not edit the PNG)';

/** The apple-touch-icon: iOS and macOS round its corners themselves, so it is drawn full bleed. */
export const APPLE_TOUCH_ICON = { src: '/apple-touch-icon.png', size: 180 } as const;

/** One icon entry of the manifest, as the W3C format spells it. */
export interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** How an icon is drawn: the favicon as it is, or full bleed with the magnifier scaled into the middle. */
type Style = { kind: 'rounded' } | { kind: 'full-bleed'; scale: number };

const BLUE = [0x1d, 0x4e, 0xd8] as const;
const WHITE = [0xff, 0xff, 0xff] as const;
/** Samples per pixel along each axis (anti-aliasing). */
const SUPERSAMPLE = 4;

/**
 * A maskable icon may be cut to any shape that contains the central circle of 40 % of its size; at
 * 0.75 the magnifier's farthest point (the handle's end) stays at 35 %.
 */
const MASKABLE_SCALE = 0.75;
/** Apple's rounded square cuts less than a circle: the magnifier may be larger. */
const APPLE_SCALE = 0.85;

/** The style an icon of the manifest is drawn in, from its purpose. */
export function styleOf(icon: ManifestIcon): Style {
  return icon.purpose?.split(/\s+/).includes('maskable')
    ? { kind: 'full-bleed', scale: MASKABLE_SCALE }
    : { kind: 'rounded' };
}

/** The favicon's shapes in its own 32-unit square: is the point inside the magnifier's ring or handle? */
function inGlyph(x: number, y: number): boolean {
  const ring = Math.abs(Math.sqrt((x - 14) ** 2 + (y - 14) ** 2) - 7) <= 1.5;
  // The handle: the segment (19,19)–(26,26) with round caps, 3 units wide.
  const t = Math.min(1, Math.max(0, (x - 19 + (y - 19)) / 14));
  const handle = Math.sqrt((x - 19 - 7 * t) ** 2 + (y - 19 - 7 * t) ** 2) <= 1.5;
  return ring || handle;
}

/** The favicon's background: the 32-unit square with corners of radius 7. */
function inRoundedSquare(x: number, y: number): boolean {
  const dx = Math.max(7 - x, x - 25, 0);
  const dy = Math.max(7 - y, y - 25, 0);
  return dx * dx + dy * dy <= 49;
}

/** Renders one icon: RGBA with transparent corners (rounded), or opaque RGB (full bleed). */
export function renderIcon(size: number, style: Style): Image {
  const channels = style.kind === 'rounded' ? 4 : 3;
  const pixels = new Uint8Array(size * size * channels);
  const unit = 32 / size;
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  // The glyph's bounding box is centred on 16.5; full bleed centres it in the square.
  const glyphAt = (u: number) => (style.kind === 'rounded' ? u : (u - 16) / style.scale + 16.5);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let covered = 0;
      let white = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const ux = (px + (sx + 0.5) / SUPERSAMPLE) * unit;
          const uy = (py + (sy + 0.5) / SUPERSAMPLE) * unit;
          if (style.kind === 'rounded' && !inRoundedSquare(ux, uy)) continue;
          covered++;
          if (inGlyph(glyphAt(ux), glyphAt(uy))) white++;
        }
      }
      const at = (py * size + px) * channels;
      for (let c = 0; c < 3; c++) {
        const blue = BLUE[c] as number;
        pixels[at + c] = covered === 0 ? 0 : Math.round(blue + ((WHITE[c] as number) - blue) * (white / covered));
      }
      if (channels === 4) pixels[at + 3] = Math.round((255 * covered) / samples);
    }
  }
  return { width: size, height: size, channels, pixels };
}

/** The manifest's icons, from the committed manifest. */
export function manifestIcons(): ManifestIcon[] {
  const manifest = JSON.parse(readFileSync(`${STATIC_DIR}manifest.webmanifest`, 'utf8')) as { icons: ManifestIcon[] };
  return manifest.icons;
}

/** The size of a manifest icon (`"512x512"` → 512); the icons are square. */
export function sizeOf(icon: ManifestIcon): number {
  const match = /^(\d+)x\1$/.exec(icon.sizes);
  if (!match) throw new Error(`manifest icon ${icon.src}: sizes must be one square size such as "512x512"`);
  return Number(match[1]);
}

/** Every icon file to write: its path under static/ and its image. */
export function allIcons(): { file: string; image: Image }[] {
  const drawn = manifestIcons().map((icon) => ({
    file: icon.src.slice(1),
    image: renderIcon(sizeOf(icon), styleOf(icon)),
  }));
  drawn.push({
    file: APPLE_TOUCH_ICON.src.slice(1),
    image: renderIcon(APPLE_TOUCH_ICON.size, { kind: 'full-bleed', scale: APPLE_SCALE }),
  });
  return drawn;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, image } of allIcons()) {
    writeFileSync(`${STATIC_DIR}${file}`, encodePng(image, { Software: GENERATOR }));
    console.log(`wrote static/${file} (${image.width} px)`);
  }
}
