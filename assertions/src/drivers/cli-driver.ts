import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  ErrorResponseSchema,
  exitCode,
  searchExitCode,
  type WebSearchResponse,
  WebSearchResponseSchema,
} from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import type { PersonGroup, PersonView } from '../person-view.ts';
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
  const order = response.results.map((group) => String(group.id));
  const groups = order.flatMap((id) => (last.has(id) ? [last.get(id) as PersonGroup] : []));
  // Blocks the document does not name stay, so the comparison still sees them.
  groups.push(...[...last.values()].filter((group) => !order.includes(group.id)));
  return { ...view, groups };
}

/**
 * The CLI in process mode (the engine inside the child), reading the case's request from stdin:
 * once with `--json` (the document), once as a person runs it (the human output, read back into the
 * person view; cli-human-view.ts names what it must show).
 */
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
      const transcript = `exit ${code}\n${stdout}\n${stderr}\nexit ${human.code}\n${human.stdout}\n${human.stderr}`;
      let body: unknown;
      try {
        body = JSON.parse(stdout);
      } catch {
        throw new Error(`cli printed no JSON (exit ${code}): ${stderr.split('\n')[0]}`);
      }
      const isResponse = body !== null && typeof body === 'object' && 'results' in body;
      const response = isResponse ? WebSearchResponseSchema.parse(body) : undefined;
      const error = isResponse ? undefined : ErrorResponseSchema.parse(body);
      // The exit code is part of the CLI's contract (SPEC §2): check it with the outcome.
      const expectedCode = response ? searchExitCode(response.results) : exitCode(error?.code ?? 'internal_error');
      if (code !== expectedCode) throw new Error(`cli exited ${code}, the contract says ${expectedCode}`);
      if (human.code !== expectedCode)
        throw new Error(`cli (human output) exited ${human.code}, the contract says ${expectedCode}`);
      return {
        outcome: response ? outcomeOfResponse(response) : outcomeOfError(error ?? { code: 'internal_error' }),
        transcript,
        document: body,
        view: inRequestOrder(cliHumanView(human.stdout), response),
      };
    },
  };
}
