import { PATHS, REQUEST_FIELDS, type RequestField, type RequestFields } from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';

/** The current search as something to paste elsewhere: a curl command, a CLI line, SDK code. */
export interface Snippets {
  curl: string;
  cli: string;
  /** TypeScript with `@openmates/sdk`. */
  sdk: string;
  /** Python with the pip SDK `openmates`. */
  python: string;
}

const SAFE_WORD = /^[A-Za-z0-9_./:,=+@%-]+$/;

/** Quotes a string for POSIX shells: bare when it is plainly safe, else single-quoted. */
export function shellQuote(text: string): string {
  if (SAFE_WORD.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Builds the snippets for a request sent to `origin`. Keys never appear: with `needsKey` the
 * snippets read `OPENMATES_API_KEY` from the environment instead.
 */
export function buildSnippets(origin: string, request: WebSearchRequest, needsKey: boolean): Snippets {
  const body = JSON.stringify(request);
  const curl = [
    `curl -sS ${shellQuote(`${origin}${PATHS.search}`)}`,
    `-H 'content-type: application/json'`,
    ...(needsKey ? [`-H "authorization: Bearer $OPENMATES_API_KEY"`] : []),
    `--data-raw ${shellQuote(body)}`,
  ].join(' \\\n  ');

  const sdk = [
    `import { OpenMates } from '@openmates/sdk';`,
    '',
    `const client = new OpenMates({ baseURL: ${JSON.stringify(origin)}${needsKey ? ', apiKey: process.env.OPENMATES_API_KEY' : ''} });`,
    `const response = await client.apps.web.search(${JSON.stringify(request, null, 2)});`,
    'console.log(response.results);',
  ].join('\n');

  const python = [
    ...(needsKey ? ['import os', ''] : []),
    'from openmates import OpenMates',
    '',
    `client = OpenMates(base_url=${JSON.stringify(origin)}${needsKey ? ', api_key=os.environ["OPENMATES_API_KEY"]' : ''})`,
    `response = client.apps.web.search(requests=${pythonLiteral(request.requests, '')})`,
    'print(response["results"])',
  ].join('\n');

  return { curl, cli: cliLine(origin, request), sdk, python };
}

/**
 * A JSON value as a Python literal, indented like `JSON.stringify(value, null, 4)`. JSON's string
 * escapes are all valid in Python string literals; only `true`, `false` and `null` are spelled
 * differently.
 */
export function pythonLiteral(value: unknown, indent: string): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/**
 * A field's value as CLI flags (a list field repeats its flag), or `undefined` when the value has no
 * flag form (a count of "abc", a field without a flag): `--input` then sends it as it is.
 */
function fieldFlags(field: RequestField, value: unknown): string[] | undefined {
  const flag = field.flag;
  if (flag === undefined) return undefined;
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? [value ? `--${flag.name}` : `--no-${flag.name}`] : undefined;
    case 'integer':
      return typeof value === 'number' ? [`--${flag.name} ${shellQuote(String(value))}`] : undefined;
    case 'list':
      return Array.isArray(value) && value.every((entry) => typeof entry === 'string')
        ? value.map((entry) => `--${flag.name} ${shellQuote(entry)}`)
        : undefined;
    default:
      return typeof value === 'string' ? [`--${flag.name} ${shellQuote(value)}`] : undefined;
  }
}

/**
 * `openmates search` takes one shared set of options for every query and no ids; a request with
 * ids, per-query options or a value no flag can carry is passed whole through `--input -` instead.
 */
function cliLine(origin: string, request: WebSearchRequest, fields: RequestFields = REQUEST_FIELDS): string {
  const items = request.requests;
  const first = items[0] as Record<string, unknown> | undefined;
  const shared = items.every(
    (item) =>
      item.id === undefined && JSON.stringify({ ...item, query: '' }) === JSON.stringify({ ...first, query: '' }),
  );
  const api = `--api-url ${shellQuote(origin)}`;
  const flags: string[] = [api];
  let expressible = shared && first !== undefined;
  for (const field of fields) {
    if (!expressible || first === undefined) break;
    if (field.name === 'query' || first[field.name] === undefined) continue;
    const given = fieldFlags(field, first[field.name]);
    if (given === undefined) expressible = false;
    else flags.push(...given);
  }
  if (!expressible) return `printf '%s' ${shellQuote(JSON.stringify(request))} | openmates search --input - ${api}`;
  const queries = items.map((item) => shellQuote(item.query));
  // `--` keeps a query that starts with a dash from being read as a flag.
  const separator = items.some((item) => item.query.startsWith('-')) ? ['--'] : [];
  return ['openmates search', ...flags, ...separator, ...queries].join(' ');
}
