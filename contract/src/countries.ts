/**
 * Countries a search can be localized to. `NO` is Norway, never the boolean `false` a YAML parser
 * reads `NO` as.
 */
export const COUNTRIES = [
  'ALL',
  'AR',
  'AT',
  'AU',
  'BE',
  'BR',
  'CA',
  'CH',
  'CL',
  'CN',
  'DE',
  'DK',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HK',
  'ID',
  'IN',
  'IT',
  'JP',
  'KR',
  'MX',
  'MY',
  'NL',
  'NO',
  'NZ',
  'PH',
  'PL',
  'PT',
  'RU',
  'SA',
  'SE',
  'TR',
  'TW',
  'US',
  'ZA',
] as const;
export type Country = (typeof COUNTRIES)[number];
/** Where an unknown country string falls back to, and the default. */
export const DEFAULT_COUNTRY: Country = 'US';

export const SAFESEARCH_LEVELS = ['off', 'moderate', 'strict'] as const;
export type Safesearch = (typeof SAFESEARCH_LEVELS)[number];
/** Where an unknown safesearch string falls back to, and the default. */
export const DEFAULT_SAFESEARCH: Safesearch = 'moderate';
