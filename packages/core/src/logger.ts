import { createRequire } from 'node:module';
import type { DestinationStream, Logger } from 'pino';

// pino is loaded on first use of a logger that can write: a silent logger (the CLI's default) does
// not pay for it at cold start. Synchronous, so `createLogger` stays synchronous; pino is CommonJS.
const requireModule = createRequire(import.meta.url);

export type { Logger };

/** Deeply replaces secrets in every string of a log record (a new record; the caller's is left as it was). */
function redactValue(value: unknown, redact: (s: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  // A plain loop over own enumerable keys: `Object.entries` built an array of pairs per record.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = redactValue((value as Record<string, unknown>)[key], redact);
  return out;
}

/**
 * pino's `stdTimeFunctions.isoTime`, the same text, formatted once per millisecond: a busy server
 * writes several lines within one, and `toISOString` was the largest part of a line's own cost.
 */
let isoMs = Number.NaN;
let isoText = '';
function isoTime(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return isoText;
}

function noop(): void {}

/** A logger that writes nothing, without pino: what `createLogger` returns at level `silent`. */
function silentLogger(): Logger {
  const logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    isLevelEnabled: () => false,
    child: () => logger,
  };
  return logger as unknown as Logger;
}

/**
 * Structured JSON logs (pino). Records carry categories, codes, counts, elapsed times, HTTP statuses
 * and request ids only: callers never pass query text, URLs, snippets, keys or upstream bodies.
 * Every string still passes `redact` as a second line of defence.
 */
export function createLogger(options: {
  level?: string;
  redact: (text: string) => string;
  /** Where lines go (default stderr, so stdout stays clean for `--json`). */
  destination?: DestinationStream;
}): Logger {
  if (options.level === 'silent') return silentLogger();
  const { redact } = options;
  const pino = requireModule('pino') as typeof import('pino').default;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'openmates' },
      timestamp: isoTime,
      formatters: { log: (record) => redactValue(record, redact) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? redact(a) : a)) as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
