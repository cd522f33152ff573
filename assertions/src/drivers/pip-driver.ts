import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ErrorResponseSchema, WebSearchResponseSchema } from '@openmates/contract';
import { type InstalledWheel, installedWheel } from '@openmates/sdk-python/wheel';
import type { CaseEnvironment, DriverResult, ParityCase, RecordedRetry, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { startCaseServer } from './case-engine.ts';
import { retryFront } from './scripted-upstream.ts';
import { checkGroups } from './stream-driver.ts';

const RUNNER = fileURLToPath(new URL('./pip_runner.py', import.meta.url));

/** What pip_runner.py prints for one case: what the SDK returned, or what it raised. */
interface RunnerAnswer {
  response?: unknown;
  /** With `stream`: the ids of the `group` events, as they arrived, and every event's type. */
  groups?: unknown[];
  events?: string[];
  /** Each retry `on_retry` reported: the failed attempt's status (null: no answer) and the wait in ms. */
  retries?: { status: number | null; delay_ms: number }[];
  error?: {
    class: string;
    message: string;
    code?: string | null;
    issues?: unknown;
    body?: unknown;
    response?: unknown;
  };
}

/** One long-lived Python process with the wheel installed, asked one case per line. */
class PipRunner {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting: ((line: string) => void)[] = [];
  #stderr = '';

  constructor(wheel: InstalledWheel) {
    // Only what Python needs: no proxy or key variable of the parent reaches the SDK.
    this.#child = spawn(wheel.python, ['-X', 'utf8', RUNNER], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk;
    });
    createInterface({ input: this.#child.stdout }).on('line', (line) => this.#waiting.shift()?.(line));
    this.#child.on('exit', (code) => {
      const reason = `pip runner exited (${code}): ${this.#stderr.trim().split('\n').at(-1) ?? ''}`;
      for (const waiter of this.#waiting.splice(0)) waiter(JSON.stringify({ exited: reason }));
    });
  }

  /** The next line the runner prints, parsed. */
  #next(): Promise<Record<string, unknown>> {
    return new Promise((resolve) => this.#waiting.push((line) => resolve(JSON.parse(line))));
  }

  /** Waits for the runner's first line and checks it imported the installed wheel, not the sources. */
  async ready(wheel: InstalledWheel): Promise<void> {
    const line = await this.#next();
    const ready = line.ready as { module?: string } | undefined;
    if (!ready?.module?.startsWith(wheel.venv))
      throw new Error(`pip runner did not import the installed wheel: ${JSON.stringify(line)}`);
  }

  async ask(baseUrl: string, request: unknown, stream: boolean, maxRetries: number): Promise<RunnerAnswer> {
    const answer = this.#next();
    const query = { base_url: baseUrl, request, max_retries: maxRetries, ...(stream ? { stream } : {}) };
    this.#child.stdin.write(`${JSON.stringify(query)}\n`);
    const line = await answer;
    if ('exited' in line) throw new Error(String(line.exited));
    return line as RunnerAnswer;
  }

  close(): void {
    this.#child.stdin.end();
  }
}

/**
 * The pip SDK, installed from its wheel into a fresh venv, against a real server on loopback:
 * `client.apps.web.search` (`pip`), or `search_stream` (`pip-stream`), whose document is
 * `final_response()`'s WebSearchResponse or error, and whose `group` events must have been one per
 * query of `done`, exactly as the npm SDK's `sdk-stream` column checks.
 */
function createPipColumn(surface: 'pip' | 'pip-stream'): SurfaceDriver {
  const stream = surface === 'pip-stream';
  let runner: PipRunner | undefined;
  return {
    surface,
    // The SDK sends typed requests only: it cannot express a raw transport body.
    supports: (testCase) => testCase.http === undefined,
    async setup() {
      const wheel = await installedWheel();
      runner = new PipRunner(wheel);
      await runner.ready(wheel);
    },
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      if (!runner) throw new Error(`the ${surface} driver was not set up`);
      const server = await startCaseServer(environment.env);
      const front = await retryFront(testCase, server.url);
      try {
        const answer = await runner.ask(front.url, testCase.request, stream, front.maxRetries);
        const transcript = JSON.stringify(answer) + server.logs.join('');
        const reported: RecordedRetry[] = (answer.retries ?? []).map((r) => ({
          status: r.status,
          delayMs: r.delay_ms,
        }));
        const made = front.finish(reported);
        const retries = made ? { retries: made } : {};
        const done = answer.response ?? (answer.error?.class === 'ProviderError' ? answer.error.response : undefined);
        if (done !== undefined) {
          const response = WebSearchResponseSchema.parse(done);
          // A JSON 502 before any stream (no events) has no group events to check.
          if (stream && (answer.events ?? []).length > 0) {
            checkGroups(surface, answer.groups ?? [], response);
            if (answer.events?.at(-1) !== 'done') throw new Error(`${surface}: the stream did not end with done`);
          }
          return { outcome: outcomeOfResponse(response), transcript, document: done, ...retries };
        }
        const error = answer.error;
        if (error?.code === undefined || error.code === null)
          throw new Error(`pip SDK raised ${error?.class}: ${error?.message}`);
        // The outcome is what the SDK's error exposes (`code`, `issues`); the body must still be an ErrorResponse.
        ErrorResponseSchema.parse(error.body);
        const exposed = ErrorResponseSchema.pick({ code: true, issues: true }).parse({
          code: error.code,
          issues: error.issues,
        });
        return { outcome: outcomeOfError(exposed), transcript, document: error.body, ...retries };
      } finally {
        await front.close();
        await server.close();
      }
    },
    async close() {
      runner?.close();
    },
  };
}

/** The pip SDK's `client.apps.web.search`. */
export const createPipDriver = (): SurfaceDriver => createPipColumn('pip');

/** The pip SDK's `client.apps.web.search_stream`. */
export const createPipStreamDriver = (): SurfaceDriver => createPipColumn('pip-stream');
