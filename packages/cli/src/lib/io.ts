import { processEnv } from './cli-env.ts';

/** The process's streams and environment, passed in so commands never reach for globals twice. */
export interface CliIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** The descriptor under `stdout` when it is the process's own; a test's stream has none. */
  readonly stdoutFd?: number;
  /** Whether stderr is a terminal, known without setting up its stream; undefined: ask the stream. */
  readonly stderrIsTTY?: boolean;
  env: Record<string, string | undefined>;
}

export function processIO(): CliIO {
  let stderrIsTTY: boolean | undefined;
  return {
    // Getters: touching a stream of the process sets it up (node:net and the stream machinery). Only
    // `--input -` reads stdin; a search printing JSON writes to stdout's descriptor instead
    // (`writeOutput`), and touches stderr only when it is a terminal (`stderrIsTTY`).
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return quietWhenReaderGone(process.stdout);
    },
    stdoutFd: 1,
    get stderr() {
      return process.stderr;
    },
    // Whether a spinner may draw on stderr: a pipe or a file is no terminal, which fstat says
    // without setting up the stream (node:net and the stream machinery; node:tty's isatty loads
    // the same); only a character device (a terminal, /dev/null) asks the stream.
    // The bigint form has a buffer of its own: on Node 22.16 the shared one of a plain fstatSync
    // left the module resolver unable to find htmlparser2's own imports later in the process.
    get stderrIsTTY() {
      stderrIsTTY ??=
        process.getBuiltinModule('node:fs').fstatSync(2, { bigint: true }).isCharacterDevice() &&
        process.stderr.isTTY === true;
      return stderrIsTTY;
    },
    env: processEnv(),
  };
}

/** True when `io`'s stderr is a terminal (a spinner may draw there). */
export function stderrIsTerminal(io: CliIO): boolean {
  return io.stderrIsTTY ?? io.stderr.isTTY === true;
}

/** A write that failed because nobody reads any more (`| head -1` has what it wanted). */
const readerGone = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';

const quieted = new WeakSet<NodeJS.WritableStream>();

/**
 * `stream` with its closed reader made quiet: an EPIPE ends the output and nothing is said (the
 * reader asked for no more), where node would throw an unhandled 'error' with a stack. Any other
 * error of the stream is thrown as before.
 */
function quietWhenReaderGone<S extends NodeJS.WritableStream>(stream: S): S {
  if (!quieted.has(stream)) {
    quieted.add(stream);
    stream.on('error', (error) => {
      if (!readerGone(error)) throw error;
    });
  }
  return stream;
}

/**
 * Writes and resolves once the data is handed to the OS, so an exit right after loses nothing; a
 * reader that has gone (EPIPE) resolves too: the output ends quietly.
 */
export function write(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    stream.write(text, (error) => (error && !readerGone(error) ? reject(error) : resolve())),
  );
}

/**
 * Writes a command's whole output to stdout: to its descriptor when `io` has one, which spares
 * setting up the stream (node:net and the stream machinery, at every cold start), else
 * through the stream. Blocking, as Node itself writes to pipes, files and terminals on Linux; a
 * descriptor another process left non-blocking (EAGAIN) gets the rest through the stream. A reader
 * that has gone (EPIPE: `| head -c 10`) ends the output quietly: it asked for no more.
 */
export async function writeOutput(io: CliIO, text: string): Promise<void> {
  if (io.stdoutFd === undefined) return write(io.stdout, text);
  const { writeSync } = process.getBuiltinModule('node:fs');
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(io.stdoutFd, bytes, at);
  } catch (error) {
    if (readerGone(error)) return;
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    await write(io.stdout, bytes.subarray(at));
  }
}
