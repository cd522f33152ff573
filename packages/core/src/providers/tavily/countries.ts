import type { Country } from '@openmates/contract';

/**
 * Tavily's `country` for each of our country codes: the country's English name in lowercase, the
 * form Tavily's Search reference takes (`"united states"`, `"south korea"`). `ALL` has none: no
 * country is sent (ADR 0124).
 */
export const TAVILY_COUNTRIES: Readonly<Record<Exclude<Country, 'ALL'>, string>> = {
  AR: 'argentina',
  AT: 'austria',
  AU: 'australia',
  BE: 'belgium',
  BR: 'brazil',
  CA: 'canada',
  CH: 'switzerland',
  CL: 'chile',
  CN: 'china',
  DE: 'germany',
  DK: 'denmark',
  ES: 'spain',
  FI: 'finland',
  FR: 'france',
  GB: 'united kingdom',
  GR: 'greece',
  HK: 'hong kong',
  ID: 'indonesia',
  IN: 'india',
  IT: 'italy',
  JP: 'japan',
  KR: 'south korea',
  MX: 'mexico',
  MY: 'malaysia',
  NL: 'netherlands',
  NO: 'norway',
  NZ: 'new zealand',
  PH: 'philippines',
  PL: 'poland',
  PT: 'portugal',
  RU: 'russia',
  SA: 'saudi arabia',
  SE: 'sweden',
  TR: 'turkey',
  TW: 'taiwan',
  US: 'united states',
  ZA: 'south africa',
};

/** Tavily's `country` for `country`, or undefined for `ALL`. */
export function tavilyCountry(country: Country): string | undefined {
  return country === 'ALL' ? undefined : TAVILY_COUNTRIES[country];
}
