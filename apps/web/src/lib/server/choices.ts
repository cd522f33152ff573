import {
  type ChoiceList,
  COUNTRIES,
  type FieldControl,
  FRESHNESS_PERIODS,
  ISO_639_1,
  LIST_SEPARATOR,
  MAX_BATCH_ITEMS,
  PERIOD_CHOICE_LIST,
  parseSwitch,
  REQUEST_FIELDS,
  type RequestField,
  type RequestFields,
  SAFESEARCH_LEVELS,
  type SkillInfo,
  TOPICS,
} from '@openmates/contract';
import { optionSummary, QUERY_FIELD, type QueryRow, rowParams } from '#lib/search-form.ts';

/** One entry of a select or a suggestion list: the value sent and the label shown. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * One control of a query's options disclosure, as the page renders it: a field of the table with a
 * `control`, its option list resolved. Plain data, so the page's script never carries the table
 * (and with it the schemas).
 */
export type FormControl = {
  /** The field's name: issues at `requests[i].<field>` are shown under the control. */
  field: string;
  /** The link parameter: the control's `name`, and its id is `<param>-<i>`. */
  param: string;
  label: string;
  help: string;
  /** For an id: the parameter of its "type" select (`number` sends the id as a JSON number). */
  typeParam?: string;
  /** Set when the server's provider cannot apply this option at all: the control is disabled and says why. */
  disabled?: string;
  /** Set when the provider applies this option only in some cases: the rule, shown under the control. */
  condition?: string;
} & (
  | { control: 'text'; suggestions?: ChoiceList }
  | { control: 'number'; placeholder?: string }
  | { control: 'select'; choices: Choice[] }
  | { control: 'toggle'; on: string; off: string }
  | { control: 'list'; separator: string }
);

/** What a loaded query row shows: each control's value, and the closed disclosure's summary. */
export interface RowView {
  /** By row key (field name or type parameter): the value the control shows, '' for the default. */
  values: Record<string, string>;
  summary: string;
}

/** The form as the page renders it, all from the contract, passed to the page as data. */
export interface FormChoices {
  maxQueries: number;
  /** In table order; the query itself is the row's main input, not one of these. */
  controls: FormControl[];
  /** The lists text controls suggest values from, one `<datalist id="<list>">` each. */
  suggestions: { list: ChoiceList; choices: Choice[] }[];
  rows: RowView[];
  /** The summary of a row added in the page, which has every option at its default. */
  blankSummary: string;
  /**
   * The link parameters a person sets only by a link (a field without a control: the id and its
   * type), by row key: each row carries its value along unseen, so searching again keeps it.
   */
  carried: { key: string; param: string }[];
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label, 'en');

/** The named option lists of the contract, languages narrowed to what the provider supports. */
function choiceLists(languages: readonly string[] | undefined): Record<ChoiceList, Choice[]> {
  const countries: Choice[] = COUNTRIES.filter((c) => c !== 'ALL')
    .map((value) => ({ value, label: `${regionNames.of(value) ?? value} (${value})` }))
    .sort(byLabel);
  countries.unshift({ value: 'ALL', label: 'All regions (ALL)' });
  return {
    countries,
    languages: [...new Set<string>(languages ?? ISO_639_1)]
      .map((value) => ({ value, label: `${languageNames.of(value) ?? value} (${value})` }))
      .sort(byLabel),
    safesearch: SAFESEARCH_LEVELS.map((value) => ({ value, label: value[0]?.toUpperCase() + value.slice(1) })),
    [PERIOD_CHOICE_LIST]: Object.entries(FRESHNESS_PERIODS).map(([value, days]) => ({
      value,
      label: `The last ${days === 1 ? '24 hours' : `${days} days`} (${value})`,
    })),
    topics: TOPICS.map((value) => ({ value, label: value === 'news' ? 'News articles' : 'Web pages' })),
  };
}

/** The value a select shows for the URL's text: the choice matching it in any case (`de` selects `DE`). */
function selected(choices: readonly Choice[], text: string): string {
  return choices.find((c) => c.value.toLowerCase() === text.toLowerCase())?.value ?? text;
}

/** A toggle's `on`/`off` for any of the words the contract reads as a switch; other text as typed. */
function switchChoice(text: string): string {
  if (text === '') return '';
  const on = parseSwitch(text);
  return on === undefined ? text : on ? 'on' : 'off';
}

/** What skill info says of the provider's options, and who the provider is, for the controls it cannot apply. */
export interface ProviderOptions {
  name: string;
  options: SkillInfo['options'];
}

/**
 * How the provider treats an option: `disabled` (with the reason) when it is neither honoured nor
 * honoured in some cases, `condition` when it is honoured only in some cases, nothing otherwise.
 * A field that is no provider option, or an unknown provider, leaves the control as it is.
 */
function providerSupport(
  field: RequestField,
  provider: ProviderOptions | undefined,
): { disabled?: string; condition?: string } {
  if (!provider || !field.providerOption) return {};
  const { honoured, unsupported, conditional } = provider.options;
  const name = field.name as (typeof honoured)[number];
  if (honoured.includes(name)) return {};
  const rule = conditional?.find((entry) => entry.option === name)?.rule;
  if (rule !== undefined) return { condition: rule };
  const reason = unsupported.find((entry) => entry.option === name)?.rule;
  return { disabled: reason ?? `${provider.name} cannot apply this option.` };
}

function formControl(
  field: RequestField,
  control: FieldControl,
  lists: Record<ChoiceList, Choice[]>,
  rows: readonly QueryRow[],
  provider: ProviderOptions | undefined,
): FormControl {
  const base = {
    field: field.name,
    param: field.link.param,
    label: control.label,
    help: control.help,
    ...(field.link.typeParam ? { typeParam: field.link.typeParam } : {}),
    ...providerSupport(field, provider),
  };
  switch (control.control) {
    case 'select': {
      // A value from a shared link that is not in the list stays a choice, so the page shows what
      // was asked and the API judges it.
      const choices = [...lists[control.choices]];
      for (const row of rows) {
        const text = row[field.name] ?? '';
        if (text !== '' && !choices.some((c) => c.value.toLowerCase() === text.toLowerCase()))
          choices.push({ value: text, label: text });
      }
      return { ...base, control: 'select', choices };
    }
    case 'number': {
      // The placeholder shows the default the API applies when the field is left empty.
      const fallback = (field.normalize as (value: undefined) => unknown)(undefined);
      return { ...base, control: 'number', ...(typeof fallback === 'number' ? { placeholder: String(fallback) } : {}) };
    }
    case 'text':
      return { ...base, control: 'text', ...(control.suggestions ? { suggestions: control.suggestions } : {}) };
    case 'toggle':
      return { ...base, control: 'toggle', on: control.on, off: control.off };
    case 'list':
      return {
        ...base,
        control: 'list',
        separator: LIST_SEPARATOR,
        help: `${control.help} Separate entries with "${LIST_SEPARATOR}".`,
      };
  }
}

function rowView(
  row: QueryRow,
  controls: readonly FormControl[],
  carried: FormChoices['carried'],
  fields: RequestFields,
): RowView {
  const values: Record<string, string> = { [QUERY_FIELD]: row[QUERY_FIELD] ?? '' };
  for (const { key } of carried) values[key] = row[key] ?? '';
  for (const control of controls) {
    const text = row[control.field] ?? '';
    values[control.field] =
      control.control === 'select'
        ? selected(control.choices, text)
        : control.control === 'toggle'
          ? switchChoice(text)
          : text;
    if (control.typeParam) values[control.typeParam] = row[control.typeParam] === 'number' ? 'number' : '';
  }
  return { values, summary: optionSummary(row, fields) };
}

/**
 * The form for a page load: one control per field of the table that has one, with its option list
 * (`languages` narrows the language list to what the provider supports: skill info lists them when
 * it does not support every ISO 639-1 code), what each loaded row shows, and, from skill info's
 * options, which controls the provider cannot apply.
 */
export function formChoices(options: {
  languages?: readonly string[];
  rows: readonly QueryRow[];
  fields?: RequestFields;
  /** Skill info's provider and options: a control the provider cannot apply is disabled, saying why. */
  provider?: ProviderOptions;
}): FormChoices {
  const fields: RequestFields = options.fields ?? REQUEST_FIELDS;
  const lists = choiceLists(options.languages);
  const controls: FormControl[] = [];
  for (const field of fields)
    if (field.control && field.name !== QUERY_FIELD)
      controls.push(formControl(field, field.control, lists, options.rows, options.provider));
  const used = new Set(controls.flatMap((c) => (c.control === 'text' && c.suggestions ? [c.suggestions] : [])));
  const carried = rowParams(fields)
    .filter(({ field }) => !field.control)
    .map(({ key, param }) => ({ key, param }));
  return {
    maxQueries: MAX_BATCH_ITEMS,
    controls,
    suggestions: [...used].map((list) => ({ list, choices: lists[list] })),
    rows: options.rows.map((row) => rowView(row, controls, carried, fields)),
    blankSummary: optionSummary({}, fields),
    carried,
  };
}
