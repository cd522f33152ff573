// The request-field table: every field of a WebSearchRequestItem declared once, with everything a
// surface needs to know about it. The item schema, the normalizer, the unknown-field message, the
// cache key, the provider option list, the CLI's flags, the GUI's controls and link scheme, the MCP
// tool schema and docs/reference.md are all built from this table, so a new field is one entry here.
import { boundedText } from './bounded-text.ts';
import {
  COUNTRIES,
  type Country,
  DEFAULT_COUNTRY,
  DEFAULT_SAFESEARCH,
  SAFESEARCH_LEVELS,
  type Safesearch,
} from './countries.ts';
import { fieldError, issueMessage } from './issue-messages.ts';
import { ISO_639_1, isIso6391 } from './languages.ts';
import {
  DEFAULT_COUNT,
  MAX_COUNT,
  MAX_EXTRA_SNIPPET_LENGTH,
  MAX_EXTRA_SNIPPETS,
  MAX_ID_LENGTH,
  MAX_PAGE,
  MAX_PUBLISHED_AHEAD_MS,
  MAX_QUERY_LENGTH,
  MAX_SCOPE_DOMAINS,
  MIN_COUNT,
  MIN_PAGE,
} from './limits.ts';
import { once } from './once.ts';
import {
  domainListSchema,
  FRESHNESS_PERIODS,
  freshnessSchema,
  normalizeDomains,
  normalizeFreshness,
  scopeConflicts,
} from './scope.ts';
import { cleanText, codePointLength } from './text.ts';
import { z } from './zod.ts';

/**
 * How a field's value is written as text (a CLI flag, a link parameter, a form control) and read back:
 * - `text`: a string, sent as typed.
 * - `integer`: a plain whole number is sent as a number, anything else as the text typed, so the
 *   contract refuses it with its own message and path rather than a surface guessing.
 * - `boolean`: `on`/`true`/`yes`/`1` and `off`/`false`/`no`/`0` (any case) are sent as booleans,
 *   anything else as typed; on the CLI a switch with a `--no-` form.
 * - `id`: a string, or a JSON number when the link's type parameter says `number`.
 * - `list`: several strings; the CLI flag is repeated, a link parameter holds them joined by
 *   `LIST_SEPARATOR`.
 */
export type FieldKind = 'text' | 'integer' | 'boolean' | 'id' | 'list';

/** The CLI flag of a field (`openmates search --NAME VALUE`). */
export interface FieldFlag {
  /** The flag's name without dashes. */
  readonly name: string;
  /** The value's placeholder in `--help` (`CODE`, `N`); none for a boolean. */
  readonly valueName?: string;
  /** The flag's line in `--help`. */
  readonly help: string;
}

/** Named option lists that a select control or suggestions take their values from. */
export type ChoiceList = 'countries' | 'languages' | 'safesearch' | 'freshness' | 'topics';

/** What a query searches: the web (the default), or news articles. */
export const TOPICS = ['web', 'news'] as const;
export type Topic = (typeof TOPICS)[number];
/** `topic` when the caller gives none. */
export const DEFAULT_TOPIC = 'web' satisfies Topic;

/**
 * The choice list of the time periods (`FRESHNESS_PERIODS`), so a surface that fills the lists
 * names it through the contract rather than spelling the field's name.
 */
export const PERIOD_CHOICE_LIST = 'freshness' as const satisfies ChoiceList;

/** The values of each option list, as a caller should send them. */
export const CHOICE_VALUES: { readonly [L in ChoiceList]: readonly string[] } = {
  countries: COUNTRIES,
  languages: ISO_639_1,
  safesearch: SAFESEARCH_LEVELS,
  [PERIOD_CHOICE_LIST]: Object.keys(FRESHNESS_PERIODS),
  topics: TOPICS,
};

/**
 * What a model-facing schema (the MCP tool's) says of a field beyond the OpenAPI document: what the
 * server enforces, and the accepted values as they should be sent. It may be stricter than the API
 * (which keeps taking case variants, and a fallback for an unknown country or safe-search level).
 */
export interface ModelSchema {
  /**
   * What a model is told of the field, when shorter than `description`: the tool's schema is read by
   * a model on every turn, so it says what to send and leaves the rules the server enforces to the
   * refusal (ADR 0119).
   */
  readonly description?: string;
  /** A pattern the field's string must match (JSON Schema `pattern`, unanchored unless anchored). */
  readonly pattern?: string;
  /** The field's string is one of these values (JSON Schema `enum`). */
  readonly choices?: ChoiceList;
  /** The field's integer is at most this (JSON Schema `maximum`). */
  readonly maximum?: number;
}

/** A query the contract does not refuse as blank has a character other than whitespace. */
export const NON_BLANK_PATTERN = '\\S';

/** A `search_lang` as a model should send it: two letters (the contract's ISO 639-1 list decides which). */
export const LANGUAGE_CODE_PATTERN = '^[A-Za-z]{2}$';

/** The GUI control of a field, inside each query's options disclosure. */
export type FieldControl =
  | { readonly control: 'text'; readonly label: string; readonly help: string; readonly suggestions?: ChoiceList }
  | { readonly control: 'number'; readonly label: string; readonly help: string }
  | { readonly control: 'select'; readonly label: string; readonly help: string; readonly choices: ChoiceList }
  | {
      readonly control: 'toggle';
      readonly label: string;
      readonly help: string;
      readonly on: string;
      readonly off: string;
    }
  | { readonly control: 'list'; readonly label: string; readonly help: string };

/** The GUI link parameter of a field: `?q=…&PARAM=…`, positional with `q`. */
export interface FieldLink {
  /** The parameter's name. */
  readonly param: string;
  /** True when one value given with several queries applies to every query (never for ids). */
  readonly broadcast: boolean;
  /** For an `id`: the parameter whose value `number` sends the id as a JSON number. */
  readonly typeParam?: string;
}

/** One field of a request item. */
export interface RequestField {
  /** The field's name on the wire (`search_lang`). */
  readonly name: string;
  readonly kind: FieldKind;
  /**
   * Its schema, without `.optional()`; the item schema adds that unless `required`. Built when first
   * read, so a process that never validates a request (the CLI's `--help`) never builds it.
   */
  readonly schema: z.ZodType;
  /**
   * One paragraph for the OpenAPI document, the MCP tool schema and the reference docs. A schema
   * registered as an OpenAPI component of its own (`RequestId`) keeps the component's description.
   */
  readonly description: string;
  readonly example?: unknown;
  readonly required?: boolean;
  /** The normalized value of a validated one (`undefined`: the field is absent from the normalized item). */
  readonly normalize: (value: never) => unknown;
  /** True when the field changes what a provider answers, so it is part of the cache key. */
  readonly cacheKey: boolean;
  /** True when a provider may or may not apply it; skill info says which providers do. */
  readonly providerOption: boolean;
  readonly flag?: FieldFlag;
  /** The GUI's control in a query's options disclosure; a field without one is set only by a link. */
  readonly control?: FieldControl;
  readonly link: FieldLink;
  /** How the GUI's closed options disclosure names a value the user set. */
  readonly summary?: (value: string) => string;
  /**
   * A rule across fields, checked on an item whose fields each passed their own schema: the
   * problems it finds, each at a path inside the item (`['exclude_domains', 1]`).
   */
  readonly check?: (item: Record<string, unknown>) => { path: (string | number)[]; message: string }[];
  /** What the MCP tool's input schema adds for a model (see `ModelSchema`). */
  readonly modelSchema?: ModelSchema;
}

/** Joins the entries of a `list` field in one link parameter value (no domain or code contains it). */
export const LIST_SEPARATOR = ',';

const ID_TYPE = issueMessage('idType', { min: 1, max: MAX_ID_LENGTH, maxInteger: Number.MAX_SAFE_INTEGER });

const ID_DESCRIPTION = `The caller's id for a query, echoed on its result group: a string of 1–${MAX_ID_LENGTH} characters or a safe integer ≥ 0. Ids are compared as strings, so \`1\` and \`"1"\` collide. Without one, the server numbers the query with the smallest positive integer no other id of the batch uses.`;

/** A caller id: a string of 1–64 characters or a safe integer ≥ 0. Compared as `String(id)`. */
export const idSchema = once(() =>
  z
    .union([boundedText(1, MAX_ID_LENGTH, 'id'), z.int({ error: ID_TYPE }).min(0, { error: ID_TYPE })], {
      error: ID_TYPE,
    })
    .openapi('RequestId', { description: ID_DESCRIPTION, example: 'q1' }),
);
export type RequestId = z.infer<ReturnType<typeof idSchema>>;

/** Rejects queries that are blank or too long once invisible characters and extra whitespace go. */
const querySchema = once(() =>
  z.string({ error: fieldError('query', issueMessage('queryType')) }).superRefine((raw, ctx) => {
    const length = codePointLength(cleanText(raw));
    if (length === 0) ctx.addIssue({ code: 'custom', message: issueMessage('queryBlank') });
    else if (length > MAX_QUERY_LENGTH)
      ctx.addIssue({ code: 'custom', message: issueMessage('queryTooLong', { max: MAX_QUERY_LENGTH, length }) });
  }),
);

/** The schema of a whole number from `min` to `max`, every fault in `message`. */
const integerSchema = (min: number, max: number, message: string) =>
  once(() => z.int({ error: message }).min(min, { error: message }).max(max, { error: message }));

const COUNT = issueMessage('count', { min: MIN_COUNT, max: MAX_COUNT });
const PAGE = issueMessage('page', { min: MIN_PAGE, max: MAX_PAGE });
const TOPIC = issueMessage('topic', { choices: TOPICS.join(', ') });

const countSchema = integerSchema(MIN_COUNT, MAX_COUNT, COUNT);
const pageSchema = integerSchema(MIN_PAGE, MAX_PAGE, PAGE);
const topicSchema = once(() => z.enum(TOPICS, { error: TOPIC }));
const countrySchema = once(() => z.string({ error: issueMessage('string', { field: 'country' }) }));
const searchLangSchema = once(() =>
  z.string({ error: issueMessage('searchLang') }).refine(isIso6391, { error: issueMessage('searchLang') }),
);
const safesearchSchema = once(() => z.string({ error: issueMessage('string', { field: 'safesearch' }) }));
const filterTabloidsSchema = once(() => z.boolean({ error: issueMessage('boolean', { field: 'filter_tabloids' }) }));
const includeDomainsSchema = once(() => domainListSchema('include_domains'));
const excludeDomainsSchema = once(() => domainListSchema('exclude_domains'));
const extraSnippetsSchema = once(() => z.boolean({ error: issueMessage('boolean', { field: 'extra_snippets' }) }));

function resolveCountry(value: string | undefined): Country {
  const upper = value?.trim().toUpperCase();
  return (COUNTRIES as readonly string[]).includes(upper ?? '') ? (upper as Country) : DEFAULT_COUNTRY;
}

function resolveSafesearch(value: string | undefined): Safesearch {
  const lower = value?.trim().toLowerCase();
  return (SAFESEARCH_LEVELS as readonly string[]).includes(lower ?? '') ? (lower as Safesearch) : DEFAULT_SAFESEARCH;
}

/** The fields of a request item, in the order the item schema, the cache key and the docs list them. */
export const REQUEST_FIELDS = [
  {
    name: 'id',
    kind: 'id',
    get schema() {
      return idSchema();
    },
    description: ID_DESCRIPTION,
    // Ids are assigned before normalizing: the normalizer sees every item's id.
    normalize: (value: RequestId) => value,
    cacheKey: false,
    providerOption: false,
    // No control: an id is a program's way to match groups to queries, not a person's option. A
    // shared link still carries one, and the "use this search elsewhere" snippets show it (ADR 0120).
    link: { param: 'id', broadcast: false, typeParam: 'idtype' },
    summary: (value: string) => `id ${value}`,
    // A safe integer: the OpenAPI document says `integer` with no upper bound.
    modelSchema: {
      maximum: Number.MAX_SAFE_INTEGER,
      description: `Your id for the query, echoed on its result group: 1–${MAX_ID_LENGTH} characters or an integer ≥ 0. Default: the next free number.`,
    },
  },
  {
    name: 'query',
    kind: 'text',
    get schema() {
      return querySchema();
    },
    description: `The search query. Invisible and format characters are removed and whitespace is collapsed and trimmed; the result must be 1–${MAX_QUERY_LENGTH} characters (code points).`,
    example: 'fetch abort signal',
    required: true,
    normalize: (value: string) => cleanText(value),
    cacheKey: true,
    providerOption: false,
    link: { param: 'q', broadcast: false },
    modelSchema: { pattern: NON_BLANK_PATTERN, description: `The search query, 1–${MAX_QUERY_LENGTH} characters.` },
  },
  {
    name: 'count',
    kind: 'integer',
    get schema() {
      return countSchema();
    },
    description: `How many results to return (${MIN_COUNT}–${MAX_COUNT}). Default ${DEFAULT_COUNT}.`,
    example: DEFAULT_COUNT,
    normalize: (value: number | undefined) => value ?? DEFAULT_COUNT,
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'count',
      valueName: 'N',
      help: `Results per query, ${MIN_COUNT} to ${MAX_COUNT} (default ${DEFAULT_COUNT}).`,
    },
    control: { control: 'number', label: 'Results', help: `${MIN_COUNT}–${MAX_COUNT}, default ${DEFAULT_COUNT}` },
    link: { param: 'count', broadcast: true },
    summary: (value: string) => `${value} results`,
  },
  {
    name: 'topic',
    kind: 'text',
    get schema() {
      return topicSchema();
    },
    description: `What to search: \`web\` pages (the default) or \`news\` articles, which come as ordinary results, newest first where the provider dates them; \`freshness\` and the domain scope apply to them as to web results. A provider without a news search refuses \`news\` with a 400.`,
    // The default is left out of the normalized item, so an item that never names a topic reads as before.
    normalize: (value: Topic | undefined) => (value === 'news' ? value : undefined),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'topic',
      valueName: 'TOPIC',
      help: `What to search: ${TOPICS.join(' or ')} (default ${DEFAULT_TOPIC}).`,
    },
    control: { control: 'select', label: 'Topic', help: `Default (${DEFAULT_TOPIC})`, choices: 'topics' },
    link: { param: 'topic', broadcast: true },
    summary: (value: string) => `topic ${value}`,
    modelSchema: {
      choices: 'topics',
      description: `\`${DEFAULT_TOPIC}\` (default) or \`news\` articles, newest first.`,
    },
  },
  {
    name: 'page',
    kind: 'integer',
    get schema() {
      return pageSchema();
    },
    description: `Which page of results (${MIN_PAGE}–${MAX_PAGE}): page N holds results the provider ranks after those of pages 1 to N−1 of the same query with the same options, none of them repeated. Default ${MIN_PAGE}. A provider that cannot page, or cannot reach this page with this \`count\`, refuses it with a 400; a group's \`more\` says whether a next page may hold more.`,
    // The first page is left out of the normalized item, so an item that never names a page reads as before.
    normalize: (value: number | undefined) => (value === undefined || value === MIN_PAGE ? undefined : value),
    cacheKey: true,
    providerOption: true,
    flag: { name: 'page', valueName: 'N', help: `Page of results, ${MIN_PAGE} to ${MAX_PAGE} (default ${MIN_PAGE}).` },
    control: { control: 'number', label: 'Page', help: `${MIN_PAGE}–${MAX_PAGE}, default ${MIN_PAGE}` },
    link: { param: 'page', broadcast: true },
    summary: (value: string) => `page ${value}`,
    modelSchema: {
      description: `Page of results (${MIN_PAGE}–${MAX_PAGE}), default ${MIN_PAGE}; a group's \`more\` says whether the next page may hold more.`,
    },
  },
  {
    name: 'country',
    kind: 'text',
    get schema() {
      return countrySchema();
    },
    description: `Country to localize results to, case-insensitive: one of ${COUNTRIES.join(', ')}. Default \`${DEFAULT_COUNTRY}\`; an unknown value falls back to \`${DEFAULT_COUNTRY}\`.`,
    example: DEFAULT_COUNTRY,
    normalize: (value: string | undefined) => resolveCountry(value),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'country',
      valueName: 'CODE',
      help: `Country to search from, one of ${COUNTRIES.join(' ')} (default ${DEFAULT_COUNTRY}; an unknown code falls back to ${DEFAULT_COUNTRY}).`,
    },
    control: { control: 'select', label: 'Country', help: 'Default (United States)', choices: 'countries' },
    link: { param: 'country', broadcast: true },
    summary: (value: string) => `country ${value}`,
    // No enum: an unknown code falls back to the default on every surface, and the schema says so.
  },
  {
    name: 'search_lang',
    kind: 'text',
    get schema() {
      return searchLangSchema();
    },
    description: 'ISO 639-1 language code, case-insensitive (normalized to lowercase).',
    example: 'en',
    normalize: (value: string | undefined) => value?.toLowerCase(),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'lang',
      valueName: 'CODE',
      help: 'Language of the results, an ISO 639-1 code such as en or de (sent as search_lang).',
    },
    control: {
      control: 'text',
      label: 'Language',
      help: 'An ISO 639-1 code such as de; empty for any.',
      suggestions: 'languages',
    },
    link: { param: 'lang', broadcast: true },
    summary: (value: string) => `language ${value}`,
    modelSchema: {
      pattern: LANGUAGE_CODE_PATTERN,
      description: 'ISO 639-1 language code of the results, such as en or de.',
    },
  },
  {
    name: 'safesearch',
    kind: 'text',
    get schema() {
      return safesearchSchema();
    },
    description: `One of ${SAFESEARCH_LEVELS.join(', ')}, case-insensitive. Default \`${DEFAULT_SAFESEARCH}\`; an unknown value falls back to \`${DEFAULT_SAFESEARCH}\`.`,
    example: DEFAULT_SAFESEARCH,
    normalize: (value: string | undefined) => resolveSafesearch(value),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'safesearch',
      valueName: 'LEVEL',
      help: `${SAFESEARCH_LEVELS.join(', ')} (default ${DEFAULT_SAFESEARCH}).`,
    },
    control: {
      control: 'select',
      label: 'Safe search',
      help: `Default (${DEFAULT_SAFESEARCH})`,
      choices: 'safesearch',
    },
    link: { param: 'safesearch', broadcast: true },
    summary: (value: string) => `safe search ${value}`,
    modelSchema: { choices: 'safesearch', description: `Default \`${DEFAULT_SAFESEARCH}\`.` },
  },
  {
    name: 'filter_tabloids',
    kind: 'boolean',
    get schema() {
      return filterTabloidsSchema();
    },
    description: 'Remove results from a maintained list of tabloid domains. Default true.',
    normalize: (value: boolean | undefined) => value ?? true,
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'filter-tabloids',
      help: 'Remove results from tabloid sites (default on; --no-filter-tabloids keeps them).',
    },
    control: { control: 'toggle', label: 'Tabloid sites', help: 'Default (removed)', on: 'Removed', off: 'Included' },
    link: { param: 'tabloids', broadcast: true },
    summary: (value: string) => (parseSwitch(value) === false ? 'tabloids included' : 'tabloids removed'),
  },
  {
    name: 'freshness',
    kind: 'text',
    get schema() {
      return freshnessSchema();
    },
    description: `Only results published in this time range (UTC): \`${Object.keys(FRESHNESS_PERIODS).join('`, `')}\` (the last 24 hours, 7, 31 or 365 days), or dates \`YYYY-MM-DD..YYYY-MM-DD\`, inclusive, with either end (not both) left open (\`2026-01-01..\`). Case-insensitive. A result whose publication date the engine can read is removed when it lies outside the range; a date up to ${MAX_PUBLISHED_AHEAD_MS / 3_600_000} hours ahead of the server's clock counts as now (publishers date pages in their own time zone), except past the last day of a range that is over.`,
    example: 'week',
    normalize: (value: string | undefined) => (value === undefined ? undefined : normalizeFreshness(value)),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'freshness',
      valueName: 'RANGE',
      help: 'Only results published in RANGE: day, week, month, year, or YYYY-MM-DD..YYYY-MM-DD (either end may be left open).',
    },
    control: {
      control: 'text',
      label: 'Published',
      help: 'day, week, month, year, or 2026-01-01..2026-06-30; empty for any time.',
      suggestions: 'freshness',
    },
    link: { param: 'freshness', broadcast: true },
    summary: (value: string) => `published ${value}`,
    modelSchema: {
      description: `Only results published in this range (UTC): \`${Object.keys(FRESHNESS_PERIODS).join('`, `')}\`, or \`YYYY-MM-DD..YYYY-MM-DD\` with either end left open.`,
    },
  },
  {
    name: 'include_domains',
    kind: 'list',
    get schema() {
      return includeDomainsSchema();
    },
    description: `Only results whose host is one of these domains or a subdomain of one (\`docs.example.org\` matches \`a.docs.example.org\`, never \`notdocs.example.org\`): 1–${MAX_SCOPE_DOMAINS} host names of at least two labels, case-insensitive, an internationalized name as Unicode or punycode; no scheme, port, path, wildcard or IP address. Enforced on every result, whatever the provider returned.`,
    example: ['developer.mozilla.org'],
    normalize: (value: string[] | undefined) => (value === undefined ? undefined : normalizeDomains(value)),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'include-domain',
      valueName: 'DOMAIN',
      help: `Only results from DOMAIN or its subdomains; repeat for up to ${MAX_SCOPE_DOMAINS} domains (sent as include_domains).`,
    },
    control: {
      control: 'list',
      label: 'Only these sites',
      help: 'Host names separated by commas, such as example.org.',
    },
    link: { param: 'include', broadcast: true },
    summary: (value: string) => `only ${value}`,
    modelSchema: {
      description: `Only results from these host names or their subdomains (1–${MAX_SCOPE_DOMAINS}, such as docs.example.org; no scheme or path).`,
    },
  },
  {
    name: 'exclude_domains',
    kind: 'list',
    get schema() {
      return excludeDomainsSchema();
    },
    description: `Remove results whose host is one of these domains or a subdomain of one: 1–${MAX_SCOPE_DOMAINS} host names, in the form of \`include_domains\`. An entry equal to an included domain, or one that covers it (\`example.org\` excluded, \`docs.example.org\` included), is refused.`,
    example: ['example.com'],
    normalize: (value: string[] | undefined) => (value === undefined ? undefined : normalizeDomains(value)),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'exclude-domain',
      valueName: 'DOMAIN',
      help: `Leave out results from DOMAIN and its subdomains; repeat for up to ${MAX_SCOPE_DOMAINS} domains (sent as exclude_domains).`,
    },
    control: {
      control: 'list',
      label: 'Not these sites',
      help: 'Host names separated by commas, such as example.com.',
    },
    link: { param: 'exclude', broadcast: true },
    summary: (value: string) => `not ${value}`,
    modelSchema: { description: 'Leave out results from these host names or their subdomains.' },
    check: (item: Record<string, unknown>) =>
      scopeConflicts(item.include_domains as string[] | undefined, item.exclude_domains as string[] | undefined).map(
        ({ index, excluded, included }) => ({
          path: ['exclude_domains', index],
          message: issueMessage('domainConflict', { excluded, included }),
        }),
      ),
  },
  {
    name: 'extra_snippets',
    kind: 'boolean',
    get schema() {
      return extraSnippetsSchema();
    },
    description: `Also return up to ${MAX_EXTRA_SNIPPETS} excerpts of each result's page (\`extra_snippets\`, each at most ${MAX_EXTRA_SNIPPET_LENGTH} characters of plain text), beyond its description. Default false. A provider that cannot give them refuses the request with a 400 rather than answering without them.`,
    normalize: (value: boolean | undefined) => (value === true ? true : undefined),
    cacheKey: true,
    providerOption: true,
    flag: {
      name: 'extra-snippets',
      help: `Also return up to ${MAX_EXTRA_SNIPPETS} excerpts of each result's page (default off).`,
    },
    control: { control: 'toggle', label: 'Page excerpts', help: 'Default (none)', on: 'Included', off: 'None' },
    link: { param: 'excerpts', broadcast: true },
    summary: (value: string) => (parseSwitch(value) === true ? 'excerpts included' : 'no excerpts'),
    modelSchema: {
      description: `Also return up to ${MAX_EXTRA_SNIPPETS} excerpts of each result's page. Default false.`,
    },
  },
] as const satisfies readonly RequestField[];

/** The table's type, for builders that take a copy of it (tests add a field to a copy). */
export type RequestFields = readonly RequestField[];
type Field = (typeof REQUEST_FIELDS)[number];
export type RequestFieldName = Field['name'];

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type NormalizedValue<E> = E extends { normalize: (value: never) => infer R } ? R : never;
/** The normalized item of a field table: a field whose `normalize` may return `undefined` is optional. */
export type NormalizedFields<F extends RequestFields> = Simplify<
  { [E in F[number] as undefined extends NormalizedValue<E> ? never : E['name']]: NormalizedValue<E> } & {
    [E in F[number] as undefined extends NormalizedValue<E> ? E['name'] : never]?: Exclude<
      NormalizedValue<E>,
      undefined
    >;
  }
>;

/**
 * The field that picks a result page. Surfaces read and step it through this name (a group's "more
 * results" is the same item with it one higher), never by spelling it.
 */
export const PAGE_FIELD = 'page' as const satisfies RequestFieldName;

/** The result page an item (as sent or normalized) asks for: its page when a valid one, else the first. */
export function pageOfItem(item: unknown): number {
  const value = (item as Record<string, unknown> | null | undefined)?.[PAGE_FIELD];
  return Number.isInteger(value) && (value as number) >= MIN_PAGE && (value as number) <= MAX_PAGE
    ? (value as number)
    : MIN_PAGE;
}

/** The fields a provider may or may not apply; skill info lists which it does. */
export type RequestOption = Extract<Field, { providerOption: true }>['name'];
export const REQUEST_OPTIONS = REQUEST_FIELDS.filter((field) => field.providerOption).map(
  (field) => field.name,
) as readonly RequestOption[] as readonly [RequestOption, ...RequestOption[]];

/** The words a `boolean` field's text takes, any case; anything else is `undefined`. */
export function parseSwitch(text: string): boolean | undefined {
  const lower = text.trim().toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(lower)) return true;
  if (['off', 'false', 'no', '0'].includes(lower)) return false;
  return undefined;
}

const PLAIN_INTEGER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A field's value from the text a person typed (a link parameter, a form control, a CLI flag):
 * converted where the text is unambiguous, otherwise passed as typed so the contract refuses it
 * with its own message and path. `text` is never empty here: an empty value means "not given".
 */
export function valueFromText(field: RequestField, text: string): unknown {
  switch (field.kind) {
    case 'integer':
      return PLAIN_INTEGER.test(text.trim()) ? Number(text.trim()) : text;
    case 'boolean':
      return parseSwitch(text) ?? text;
    case 'list':
      return text
        .split(LIST_SEPARATOR)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
    default:
      return text;
  }
}

/** `id, query, count, …`: the allowed names the unknown-field message lists. */
export function fieldNames(fields: RequestFields = REQUEST_FIELDS): string {
  return fields.map((field) => field.name).join(', ');
}

/** The field whose CLI flag is `name`, if any. */
export function fieldOfFlag(name: string, fields: RequestFields = REQUEST_FIELDS): RequestField | undefined {
  return fields.find((field) => field.flag?.name === name);
}

/**
 * The part of the cache key an item's fields make: every `cacheKey` field's normalized value, in
 * table order (`null` for an absent one), as JSON. Never the caller's id.
 */
export function cacheIdentity(item: object, fields: RequestFields = REQUEST_FIELDS): string {
  const values = item as Record<string, unknown>;
  const key: unknown[] = [];
  for (const field of fields) if (field.cacheKey) key.push(values[field.name] ?? null);
  return JSON.stringify(key);
}
