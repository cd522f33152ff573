import { processEnv } from './cli-env.ts';

/** The process's streams and environment, passed in so commands never reach for globals twice. */
export interface CliIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
}

export function processIO(): CliIO {
  return {
    // A getter: touching process.stdin sets up a stream (about 3 ms of a cold start), and only
    // `--input -` reads it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: processEnv(),
  };
}

/** Writes and resolves once the data is handed to the OS, so an exit right after loses nothing. */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}
