import { MAX_BATCH_ITEMS, REQUEST_FIELDS, type RequestField, type RequestFields } from '@openmates/contract';
import { EXAMPLE_QUERIES } from './example-queries.ts';

/** One flag of `openmates search`, in the form both parsers are built from. */
export interface SearchFlagSpec {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  readonly char?: string;
  readonly helpValue?: string;
  /** A boolean that also takes `--no-NAME`. */
  readonly allowNo?: boolean;
  /** Repeatable: every occurrence adds one value, and the value is an array. */
  readonly multiple?: boolean;
  /** The request field the flag sets on every query; none for a command flag. */
  readonly field?: RequestField;
}

/** The flags that shape the invocation rather than a request item; declared here, not in the contract. */
export const COMMAND_FLAGS = {
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
  wait: {
    type: 'boolean',
    allowNo: true,
    description:
      'With --api-url, when the server rate limits this client, say so and wait as long as it asks before trying again (default on; Ctrl-C stops). --no-wait exits with code 5 at once.',
  },
} as const satisfies Record<string, SearchFlagSpec>;

/** The request fields that have a CLI flag, in table order. */
export function flaggedFields(
  fields: RequestFields = REQUEST_FIELDS,
): (RequestField & { flag: NonNullable<RequestField['flag']> })[] {
  return fields.filter((field): field is RequestField & { flag: NonNullable<RequestField['flag']> } => !!field.flag);
}

/** The flag of one request field: a switch with `--no-` for a boolean, repeatable for a list, else a value. */
function fieldFlag(field: RequestField & { flag: NonNullable<RequestField['flag']> }): SearchFlagSpec {
  const { help, valueName } = field.flag;
  if (field.kind === 'boolean') return { type: 'boolean', allowNo: true, description: help, field };
  return {
    type: 'string',
    description: help,
    ...(valueName === undefined ? {} : { helpValue: valueName }),
    ...(field.kind === 'list' ? { multiple: true } : {}),
    field,
  };
}

/**
 * The flags of `openmates search`: one per request field with a `flag` in the field table (the
 * contract's unless a test passes a copy), then the command flags. The oclif command and the fast
 * path of `bin/run.js` (which parses with `node:util` to skip loading oclif) are both built from it.
 */
export function searchFlagTable(fields: RequestFields = REQUEST_FIELDS): Record<string, SearchFlagSpec> {
  const table: Record<string, SearchFlagSpec> = {};
  for (const field of flaggedFields(fields)) {
    if (field.flag.name in COMMAND_FLAGS)
      throw new Error(`the flag of ${field.name} (--${field.flag.name}) is a command flag`);
    table[field.flag.name] = fieldFlag(field);
  }
  return { ...table, ...COMMAND_FLAGS };
}

/**
 * The first switch in `argv` written with a value (`--json=1`, `--filter-tabloids=no`), as typed, or
 * undefined. A switch takes no value, and neither parser refuses one: oclif would search the value
 * as one more query, and the switch would stay on. Arguments after `--` are queries.
 */
export function switchGivenValue(argv: readonly string[], fields: RequestFields = REQUEST_FIELDS): string | undefined {
  const switches = new Set<string>();
  for (const [name, spec] of Object.entries(searchFlagTable(fields)))
    if (spec.type === 'boolean') {
      switches.add(`--${name}`);
      if (spec.allowNo) switches.add(`--no-${name}`);
    }
  for (const arg of argv) {
    if (arg === '--') return undefined;
    const equals = arg.indexOf('=');
    if (arg.startsWith('--') && equals > 0 && switches.has(arg.slice(0, equals))) return arg;
  }
  return undefined;
}

/** The command flags' values, as both parsers produce them. */
export interface CommandFlagValues {
  input?: string | undefined;
  json?: boolean | undefined;
  jsonl?: boolean | undefined;
  'api-url'?: string | undefined;
  'api-key'?: string | undefined;
  wait?: boolean | undefined;
}

/**
 * Parsed flag values, by flag name, as both parsers produce them: a string for a value flag, a
 * boolean for a switch, an array for a repeatable flag. Request flags stay as typed: `buildRequest`
 * converts them, and the contract validates them, so the CLI refuses exactly what the API refuses.
 */
export type SearchFlagValues = CommandFlagValues & {
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
};

/**
 * `openmates search`'s arguments for the field table's own example query, narrowed by every option
 * whose example is not already its default (the language, the time range, the sites), so `--help`
 * shows each such option as the table names it.
 */
export function narrowedExampleArgv(fields: RequestFields = REQUEST_FIELDS): string[] {
  const argv = ['search', String(fields.find((field) => field.required)?.example)];
  for (const field of fields) {
    if (field.flag === undefined || field.example === undefined) continue;
    const normalize = field.normalize as (value: unknown) => unknown;
    if (JSON.stringify(normalize(field.example)) === JSON.stringify(normalize(undefined))) continue;
    const values: unknown[] = Array.isArray(field.example) ? field.example : [field.example];
    for (const value of values) argv.push(`--${field.flag.name}`, String(value));
  }
  return argv;
}

/** The examples of `openmates search --help` (built when help is shown, not on a search's path). */
export const searchExamples = () => {
  const { one, several, json, streamed, stdin, server } = EXAMPLE_QUERIES;
  const quoted = (queries: readonly string[]) => queries.map((query) => JSON.stringify(query)).join(' ');
  return [
    { description: 'Search for one query', command: `<%= config.bin %> search ${quoted([one])}` },
    {
      description: 'Several queries at once (one argument each), five results per query, from Germany in German',
      command: `<%= config.bin %> search ${quoted(several)} --count 5 --country DE --lang de`,
    },
    {
      description: 'One query narrowed: a language, a time range, only some sites and not others',
      command: `<%= config.bin %> ${narrowedExampleArgv()
        .map((arg) => (/^[\w.:/-]+$/.test(arg) ? arg : JSON.stringify(arg)))
        .join(' ')}`,
    },
    {
      description: 'Machine-readable output for a script',
      command: `<%= config.bin %> search ${quoted([json])} --json | jq .`,
    },
    {
      description: 'Each group as a JSON line the moment its query finishes, then the whole response',
      command: `<%= config.bin %> search ${quoted(streamed)} --jsonl`,
    },
    {
      description: 'A WebSearchRequest from stdin',
      command: `echo '${JSON.stringify({ requests: [{ id: 'a', query: stdin }] })}' | <%= config.bin %> search --input - --json`,
    },
    {
      description: 'Through a running server (openmates serve)',
      command: `<%= config.bin %> search ${quoted([server])} --api-url http://127.0.0.1:8787`,
    },
  ];
};
