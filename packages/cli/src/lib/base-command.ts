import { Command, Errors } from '@oclif/core';
import { errorLine } from '../search/outcome.ts';
import { cliVariable, processEnv } from './cli-env.ts';

/** Exit code of a usage mistake, as for an invalid request (the contract's `invalid_request`). */
const EXIT_USAGE = 2;

/**
 * Every command's base: an unexpected error becomes one line on stderr and exit 1, never a stack
 * trace; a mistake in the arguments (an unknown flag, a flag without its value, a flag another
 * excludes) one line naming it,
 * the closest flag when one is near, and the command's `--help`, exit 2 (ADR 0122).
 * `OPENMATES_DEBUG=1` shows the stack of a bug.
 */
export abstract class BaseCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (error instanceof Errors.ExitError) return super.catch(error);
    if (error instanceof Errors.CLIError) {
      const { parseErrorLine, unknownFlagLine } = await import('./usage.ts');
      const command = (this.id ?? '').replaceAll(':', ' ');
      const unknown = (error as { flags?: unknown }).flags;
      const line =
        Array.isArray(unknown) && typeof unknown[0] === 'string'
          ? unknownFlagLine(unknown[0].replace(/=.*$/s, ''), this.knownFlags(), command)
          : parseErrorLine(error.message, command);
      process.stderr.write(`${line}\n`);
      process.exitCode = error.oclif?.exit ?? EXIT_USAGE;
      return undefined;
    }
    if (cliVariable(processEnv(), 'OPENMATES_DEBUG')) process.stderr.write(`${error.stack ?? error}\n`);
    process.stderr.write(`${errorLine(`internal error (${error.name})`, 'internal_error')}\n`);
    process.exitCode = 1;
    return undefined;
  }

  /** Every flag this command takes, as typed: `--name`, `--no-name` where declared, `-c`. */
  private knownFlags(): string[] {
    const flags = Object.entries(this.ctor.flags ?? {}) as [string, { char?: string; allowNo?: boolean }][];
    return flags.flatMap(([name, flag]) => [
      `--${name}`,
      ...(flag.allowNo ? [`--no-${name}`] : []),
      ...(flag.char ? [`-${flag.char}`] : []),
    ]);
  }
}
