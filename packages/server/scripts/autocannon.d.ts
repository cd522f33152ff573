// autocannon ships no types; this declares the part the benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests per second over all connections. */
    overallRate?: number;
    pipelining?: number;
  }

  export interface Result {
    duration: number;
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  export interface Instance extends EventEmitter {
    /** `responseTime` is in milliseconds, with sub-millisecond precision. */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): this;
    stop(): void;
  }

  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
}
