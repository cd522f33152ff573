import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  cleanText,
  ErrorResponseSchema,
  exitCode,
  LIST_SEPARATOR,
  REQUEST_FIELDS,
  type RequestField,
  searchExitCode,
  valueFromText,
  type WebSearchResponse,
  WebSearchResponseSchema,
} from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { canonicalOutcome, type Outcome, outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import type { PersonGroup, PersonLineView, PersonView } from '../person-view.ts';
import { cliHumanView } from './cli-human-view.ts';

const BIN = fileURLToPath(new URL('../../../packages/cli/bin/run.js', import.meta.url));

/** Runs the real binary as a script would: `openmates search --input - --json`, request on stdin. */
function runCli(
  args: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // Only the case's environment and what Node needs: no provider key leaks in from the parent.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * Piped, the CLI prints each group as its query finishes (completion order) and, at the end, again
 * any group that fitting changed since: a person reads each query's last block. The view compares
 * those in request order, as the document holds them.
 */
function inRequestOrder(view: PersonView, response: WebSearchResponse | undefined): PersonView {
  if (view.kind !== 'response' || !response) return view;
  const last = new Map(view.groups.map((group) => [group.id, group]));
  const order = response.results.map((group) => cleanText(String(group.id)));
  const groups = order.flatMap((id) => (last.has(id) ? [last.get(id) as PersonGroup] : []));
  // Blocks the document does not name stay, so the comparison still sees them.
  groups.push(...[...last.values()].filter((group) => !order.includes(group.id)));
  return { ...view, groups };
}

/** `inRequestOrder` for a response's view; a refusal's line as it is. */
function inRequestOrderOrLine(
  view: PersonView | PersonLineView,
  response: WebSearchResponse | undefined,
): PersonView | PersonLineView {
  return view.kind === 'line' ? view : inRequestOrder(view, response);
}

const QUERY = 'query';

/** The flag words of one field's value, or undefined when the flag cannot say exactly this value. */
function flagWords(field: RequestField, value: unknown): string[] | undefined {
  const flag = field.flag;
  if (!flag) return undefined;
  if (field.kind === 'boolean')
    return typeof value === 'boolean' ? [value ? `--${flag.name}` : `--no-${flag.name}`] : undefined;
  if (field.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const plain = value.every(
      (entry) => typeof entry === 'string' && entry === entry.trim() && entry !== '' && !entry.includes(LIST_SEPARATOR),
    );
    return plain ? value.flatMap((entry: string) => [`--${flag.name}`, entry]) : undefined;
  }
  const text = String(value);
  if (text === '' || text.startsWith('-') || JSON.stringify(valueFromText(field, text)) !== JSON.stringify(value))
    return undefined;
  return [`--${flag.name}`, text];
}

/**
 * The case's request as a person types it: `openmates search Q1 Q2 --flag V …`, every flag from the
 * field table (a list field's flag repeated). Only a request whose queries carry no id and share
 * every option can be said that way; otherwise undefined.
 */
export function flagLine(request: unknown): string[] | undefined {
  const items = (request as { requests?: unknown } | undefined)?.requests;
  if (!Array.isArray(items) || items.length === 0 || !items.every((i) => i !== null && typeof i === 'object'))
    return undefined;
  const rows = items as Record<string, unknown>[];
  const queries: string[] = [];
  for (const row of rows) {
    const query = row[QUERY];
    if (typeof query !== 'string' || query !== query.trim() || query === '' || query.startsWith('-')) return undefined;
    queries.push(query);
  }
  const names = new Set(rows.flatMap((row) => Object.keys(row)));
  const words: string[] = [];
  for (const name of names) {
    if (name === QUERY) continue;
    const field = REQUEST_FIELDS.find((f) => f.name === name);
    if (!field) return undefined;
    const shared = JSON.stringify(rows[0]?.[name]);
    if (!rows.every((row) => JSON.stringify(row[name]) === shared)) return undefined;
    const said = flagWords(field, rows[0]?.[name]);
    if (!said) return undefined;
    words.push(...said);
  }
  return [...queries, ...words];
}

/**
 * The CLI in process mode (the engine inside the child), reading the case's request from stdin:
 * once with `--json` (the document), once as a person runs it (the human output, read back into the
 * person view; cli-human-view.ts names what it must show), and, when flags can say the request
 * (`flagLine`), once more typed as `openmates search QUERY --flag VALUE …`, which must give the same
 * outcome and exit code.
 */
/** Throws unless the flag line's run gave the outcome and exit code of the request sent on stdin. */
function checkFlagged(
  outcome: Outcome,
  flagged: { code: number | null; stdout: string; stderr: string },
  expectedCode: number,
  line: string[],
): void {
  let body: unknown;
  try {
    body = JSON.parse(flagged.stdout);
  } catch {
    throw new Error(
      `cli flags (${line.join(' ')}) printed no JSON (exit ${flagged.code}): ${flagged.stderr.split('\n')[0]}`,
    );
  }
  const isResponse = body !== null && typeof body === 'object' && 'results' in body;
  const got = isResponse
    ? outcomeOfResponse(WebSearchResponseSchema.parse(body))
    : outcomeOfError(ErrorResponseSchema.parse(body));
  if (canonicalOutcome(got) !== canonicalOutcome(outcome))
    throw new Error(
      `cli flags (${line.join(' ')}) differ from the same request on stdin: ${canonicalOutcome(got)} ≠ ${canonicalOutcome(outcome)}`,
    );
  if (flagged.code !== expectedCode)
    throw new Error(`cli flags exited ${flagged.code}, the contract says ${expectedCode}`);
}

export function createCliDriver(): SurfaceDriver {
  return {
    surface: 'cli',
    supports: (testCase) => testCase.http === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const { code, stdout, stderr } = await runCli(
        ['search', '--input', '-', '--json'],
        JSON.stringify(testCase.request),
        environment.env,
      );
      const human = await runCli(['search', '--input', '-'], JSON.stringify(testCase.request), {
        ...environment.env,
        COLUMNS: '100000',
      });
      // The same request typed as flags (built from the field table), when flags can say it.
      const line = flagLine(testCase.request);
      const flagged = line ? await runCli(['search', ...line, '--json'], '', environment.env) : undefined;
      const transcript = `exit ${code}\n${stdout}\n${stderr}\nexit ${human.code}\n${human.stdout}\n${human.stderr}${
        flagged ? `\nexit ${flagged.code}\n${flagged.stdout}\n${flagged.stderr}` : ''
      }`;
      let body: unknown;
      try {
        body = JSON.parse(stdout);
      } catch {
        throw new Error(`cli printed no JSON (exit ${code}): ${stderr.split('\n')[0]}`);
      }
      const isResponse = body !== null && typeof body === 'object' && 'results' in body;
      const response = isResponse ? WebSearchResponseSchema.parse(body) : undefined;
      const error = isResponse ? undefined : ErrorResponseSchema.parse(body);
      // The exit code is part of the CLI's contract (the error table's exit codes): check it with the outcome.
      const expectedCode = response ? searchExitCode(response.results) : exitCode(error?.code ?? 'internal_error');
      if (code !== expectedCode) throw new Error(`cli exited ${code}, the contract says ${expectedCode}`);
      if (human.code !== expectedCode)
        throw new Error(`cli (human output) exited ${human.code}, the contract says ${expectedCode}`);
      const outcome = response ? outcomeOfResponse(response) : outcomeOfError(error ?? { code: 'internal_error' });
      if (flagged) checkFlagged(outcome, flagged, expectedCode, line ?? []);
      return {
        outcome,
        transcript,
        document: body,
        view: inRequestOrderOrLine(cliHumanView(human.stdout, human.stderr), response),
      };
    },
  };
}
