import { ISO_639_1 } from '@openmates/contract';

/**
 * Brave's own `search_lang` codes, as its Web Search API documents them. Most are ISO 639-1;
 * some are Brave's own (`jp`, `zh-hans`, `zh-hant`, `pt-br`, `pt-pt`, `en-gb`).
 */
export const BRAVE_SEARCH_LANGS = [
  'ar',
  'eu',
  'bn',
  'bg',
  'ca',
  'zh-hans',
  'zh-hant',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en-gb',
  'et',
  'fi',
  'fr',
  'gl',
  'de',
  'gu',
  'he',
  'hi',
  'hu',
  'is',
  'it',
  'jp',
  'kn',
  'ko',
  'lv',
  'lt',
  'ms',
  'ml',
  'mr',
  'nb',
  'pl',
  'pt-br',
  'pt-pt',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
] as const;

/**
 * ISO 639-1 codes whose Brave code differs. `zh` is taken as Simplified Chinese and `pt` as
 * European Portuguese (Brave has no plain `zh` or `pt`); `no` (Norwegian) is Bokmål, Brave's `nb`.
 */
const ISO_TO_BRAVE: Readonly<Record<string, string>> = { ja: 'jp', zh: 'zh-hans', pt: 'pt-pt', no: 'nb' };

const BRAVE_SET: ReadonlySet<string> = new Set(BRAVE_SEARCH_LANGS);

/** Brave's `search_lang` for an ISO 639-1 code (any case), or undefined when Brave has none. */
export function toBraveSearchLang(iso: string): string | undefined {
  const code = iso.toLowerCase();
  const mapped = ISO_TO_BRAVE[code] ?? code;
  return BRAVE_SET.has(mapped) ? mapped : undefined;
}

/** The ISO 639-1 codes a caller may send as `search_lang` when Brave is the provider. */
export const BRAVE_ISO_LANGUAGES: readonly string[] = ISO_639_1.filter((code) => toBraveSearchLang(code) !== undefined);
