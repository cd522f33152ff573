import { MAX_DESCRIPTION_LENGTH, MAX_PASSTHROUGH_LENGTH, MAX_TITLE_LENGTH } from '@openmates/contract';
import type { TextFormat } from '../provider.ts';
import { providerText } from './html-to-text.ts';
import { truncate } from './truncate.ts';

/**
 * A result title: provider text in `format` (see `providerText`; default `html`, which removes any
 * markup) bounded by MAX_TITLE_LENGTH; when nothing is left (or the provider gave no string), the
 * hostname of `url`, which must be an admitted URL (see `admitUrl`).
 */
export function sanitizeTitle(raw: unknown, url: string, format: TextFormat = 'html'): string {
  const text = typeof raw === 'string' ? providerText(raw, format, MAX_TITLE_LENGTH) : '';
  if (text !== '') return text;
  const parsed = URL.parse(url);
  if (parsed === null || parsed.hostname === '') throw new TypeError('sanitizeTitle needs an admitted URL');
  return truncate(parsed.hostname, MAX_TITLE_LENGTH);
}

/** A result description: provider text in `format` (default `html`) bounded by MAX_DESCRIPTION_LENGTH; `''` for a non-string. */
export function sanitizeDescription(raw: unknown, format: TextFormat = 'html'): string {
  return typeof raw === 'string' ? providerText(raw, format, MAX_DESCRIPTION_LENGTH) : '';
}

/**
 * A passthrough string (`age`, `language`): provider text in `format` (default `html`) bounded by
 * MAX_PASSTHROUGH_LENGTH; `undefined` for a non-string or when nothing is left, so the field is omitted.
 */
export function sanitizePassthrough(raw: unknown, format: TextFormat = 'html'): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = providerText(raw, format, MAX_PASSTHROUGH_LENGTH);
  return text === '' ? undefined : text;
}
