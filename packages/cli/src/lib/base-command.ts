import { Command, Errors } from '@oclif/core';
import { errorLine } from '../search/outcome.ts';
import { cliVariable, processEnv } from './cli-env.ts';

/**
 * Every command's base: an unexpected error becomes one line on stderr and exit 1, never a stack
 * trace (oclif's own usage errors keep their message and exit 2). `OPENMATES_DEBUG=1` shows the stack.
 */
export abstract class BaseCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (error instanceof Errors.CLIError || error instanceof Errors.ExitError) return super.catch(error);
    if (cliVariable(processEnv(), 'OPENMATES_DEBUG')) process.stderr.write(`${error.stack ?? error}\n`);
    process.stderr.write(`${errorLine(`internal error (${error.name})`, 'internal_error')}\n`);
    process.exitCode = 1;
    return undefined;
  }
}
