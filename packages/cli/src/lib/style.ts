import { styleText } from 'node:util';

type Format = Parameters<typeof styleText>[0];

/**
 * Colour for one stream: never with `NO_COLOR` set (https://no-color.org); always with
 * `FORCE_COLOR` set (other than `0`); otherwise only on a terminal that has colours.
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && (stream.hasColors?.() ?? false);
}

/** A styler that applies `node:util` styles when colour is on and returns the text untouched otherwise. */
export function styler(color: boolean): (format: Format, text: string) => string {
  return color ? (format, text) => styleText(format, text, { validateStream: false }) : (_format, text) => text;
}
