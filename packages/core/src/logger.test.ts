import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { destination, lines };
}

describe('createLogger', () => {
  it('writes redacted JSON lines at a level that logs', () => {
    const { destination, lines } = capture();
    const logger = createLogger({ level: 'info', redact: (s) => s.replaceAll('sekret', '[redacted]'), destination });
    logger.child({ request_id: 'r1' }).info({ event: 'x', note: 'sekret' }, 'hello sekret');
    logger.debug('below the level');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string);
    expect(record).toMatchObject({ service: 'openmates', request_id: 'r1', event: 'x', note: '[redacted]' });
    expect(record.msg).toBe('hello [redacted]');
  });

  it('at level silent returns a logger (and children) that write nothing', () => {
    const { destination, lines } = capture();
    const logger = createLogger({ level: 'silent', redact: (s) => s, destination });
    const child = logger.child({ request_id: 'r1' });
    for (const log of [logger, child]) {
      log.fatal('a');
      log.error({ event: 'e' }, 'b');
      log.warn('c');
      log.info('d');
      log.debug('e');
      log.trace('f');
    }
    expect(lines).toEqual([]);
    expect(child.isLevelEnabled('fatal')).toBe(false);
    expect(logger.level).toBe('silent');
  });
});
