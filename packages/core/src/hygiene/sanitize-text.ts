import {
  MAX_DESCRIPTION_LENGTH,
  MAX_EXTRA_SNIPPET_LENGTH,
  MAX_EXTRA_SNIPPETS,
  MAX_PASSTHROUGH_LENGTH,
  MAX_TITLE_LENGTH,
} from '@openmates/contract';
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

/**
 * A result's page excerpts: each string of `raw` as provider text in `format` (default `html`)
 * bounded by MAX_EXTRA_SNIPPET_LENGTH, in order, leaving out what cleans to nothing, what repeats
 * `description` (the result's own, already cleaned) and what repeats an earlier excerpt (both
 * compared case-insensitively), at most MAX_EXTRA_SNIPPETS. `undefined` for a non-array or when
 * none is left, so the field is omitted rather than empty.
 */
export function sanitizeExtraSnippets(
  raw: unknown,
  description: string,
  format: TextFormat = 'html',
): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const seen = new Set([description.toLowerCase()]);
  const kept: string[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'string') continue;
    const text = providerText(entry, format, MAX_EXTRA_SNIPPET_LENGTH);
    const key = text.toLowerCase();
    if (text === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
    if (kept.length === MAX_EXTRA_SNIPPETS) break;
  }
  return kept.length > 0 ? kept : undefined;
}
