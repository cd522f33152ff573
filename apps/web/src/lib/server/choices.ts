import {
  COUNTRIES,
  DEFAULT_COUNT,
  ISO_639_1,
  MAX_BATCH_ITEMS,
  MAX_COUNT,
  MIN_COUNT,
  SAFESEARCH_LEVELS,
} from '@openmates/contract';

/** One entry of a select: the value sent and the label shown. */
export interface Choice {
  value: string;
  label: string;
}

/** The form's limits and option lists, all from the contract, passed to the page as data. */
export interface FormChoices {
  maxQueries: number;
  minCount: number;
  maxCount: number;
  defaultCount: number;
  countries: Choice[];
  languages: Choice[];
  safesearch: Choice[];
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label, 'en');

/**
 * The choices for the form. `languages` narrows the language list to what the provider supports
 * (skill info lists them when it does not support every ISO 639-1 code). A country from a shared link
 * that is not in the list is kept as a choice, so the page shows it and the API judges it; the
 * language field takes any text, with these as suggestions.
 */
export function formChoices(options: {
  languages?: readonly string[];
  currentCountries: readonly string[];
}): FormChoices {
  const countries: Choice[] = COUNTRIES.filter((c) => c !== 'ALL')
    .map((value) => ({ value, label: `${regionNames.of(value) ?? value} (${value})` }))
    .sort(byLabel);
  countries.unshift({ value: 'ALL', label: 'All regions (ALL)' });
  const codes = new Set<string>(options.languages ?? ISO_639_1);
  const languages = [...codes]
    .map((value) => ({ value, label: `${languageNames.of(value) ?? value} (${value})` }))
    .sort(byLabel);
  const keep = (list: Choice[], value: string) => {
    if (value !== '' && !list.some((c) => c.value.toLowerCase() === value.toLowerCase()))
      list.push({ value, label: value });
  };
  for (const country of options.currentCountries) keep(countries, country);
  return {
    maxQueries: MAX_BATCH_ITEMS,
    minCount: MIN_COUNT,
    maxCount: MAX_COUNT,
    defaultCount: DEFAULT_COUNT,
    countries,
    languages,
    safesearch: SAFESEARCH_LEVELS.map((value) => ({ value, label: value[0]?.toUpperCase() + value.slice(1) })),
  };
}
