import {
  COUNTRIES,
  DEFAULT_COUNT,
  DEFAULT_COUNTRY,
  DEFAULT_SAFESEARCH,
  MAX_BATCH_ITEMS,
  MAX_COUNT,
  MIN_COUNT,
  SAFESEARCH_LEVELS,
} from '@openmates/contract';

/**
 * The flags of `openmates search`, declared once: the oclif command and the fast path of
 * `bin/run.js` (which parses with `node:util` to skip loading oclif) are both built from this table.
 * Values stay strings: the contract validates them, so the CLI refuses exactly what the API refuses.
 */
export const SEARCH_FLAGS = {
  count: {
    type: 'string',
    helpValue: 'N',
    description: `Results per query, ${MIN_COUNT} to ${MAX_COUNT} (default ${DEFAULT_COUNT}).`,
  },
  country: {
    type: 'string',
    helpValue: 'CODE',
    description: `Country to search from, one of ${COUNTRIES.join(' ')} (default ${DEFAULT_COUNTRY}).`,
  },
  lang: {
    type: 'string',
    helpValue: 'CODE',
    description: 'Language of the results, an ISO 639-1 code such as en or de (sent as search_lang).',
  },
  safesearch: {
    type: 'string',
    helpValue: 'LEVEL',
    description: `${SAFESEARCH_LEVELS.join(', ')} (default ${DEFAULT_SAFESEARCH}).`,
  },
  'filter-tabloids': {
    type: 'boolean',
    allowNo: true,
    description: 'Remove results from tabloid sites (default on; --no-filter-tabloids keeps them).',
  },
  input: {
    type: 'string',
    char: 'i',
    helpValue: 'FILE|-',
    description: `Read a WebSearchRequest (JSON, 1 to ${MAX_BATCH_ITEMS} requests) from FILE, or from stdin with -. Not combined with queries or request flags.`,
  },
  json: {
    type: 'boolean',
    description:
      'Print exactly the WebSearchResponse (or the ErrorResponse of a refused request) as one JSON line, and nothing else.',
  },
  jsonl: {
    type: 'boolean',
    description:
      'Print one JSON line per event as it happens: {"event":"group","data":<ResultGroup>} as each query finishes, then {"event":"done","data":<WebSearchResponse>} or {"event":"error","data":<ErrorResponse>}. Exit codes as with --json; not combined with --json.',
  },
  'api-url': {
    type: 'string',
    helpValue: 'ORIGIN',
    description:
      'Search through an OpenMates server at ORIGIN (e.g. http://127.0.0.1:8787) instead of in process. Env: OPENMATES_API_URL.',
  },
  'api-key': {
    type: 'string',
    helpValue: 'KEY',
    description: 'API key for --api-url (sent as a bearer token). Env: OPENMATES_API_KEY.',
  },
} as const satisfies Record<
  string,
  { type: 'string' | 'boolean'; description: string; char?: string; helpValue?: string; allowNo?: boolean }
>;

export type SearchFlagName = keyof typeof SEARCH_FLAGS;

/** Parsed flag values, as both parsers produce them. */
export interface SearchFlagValues {
  count?: string | undefined;
  country?: string | undefined;
  lang?: string | undefined;
  safesearch?: string | undefined;
  'filter-tabloids'?: boolean | undefined;
  input?: string | undefined;
  json?: boolean | undefined;
  jsonl?: boolean | undefined;
  'api-url'?: string | undefined;
  'api-key'?: string | undefined;
}

export const SEARCH_EXAMPLES = [
  { description: 'Search the web for one query', command: '<%= config.bin %> search "rust async runtime"' },
  {
    description: 'Several queries at once (one argument each), five results per query, from Germany in German',
    command: '<%= config.bin %> search "sqlite fts5" "bm25 ranking" --count 5 --country DE --lang de',
  },
  {
    description: 'Machine-readable output for a script',
    command: '<%= config.bin %> search "node 24 release" --json | jq .',
  },
  {
    description: 'Each group as a JSON line the moment its query finishes, then the whole response',
    command: '<%= config.bin %> search "fast query" "slow query" --jsonl',
  },
  {
    description: 'A WebSearchRequest from stdin',
    command: `echo '{"requests":[{"id":"a","query":"openmates"}]}' | <%= config.bin %> search --input - --json`,
  },
  {
    description: 'Through a running server (openmates serve)',
    command: '<%= config.bin %> search "openmates" --api-url http://127.0.0.1:8787',
  },
];
