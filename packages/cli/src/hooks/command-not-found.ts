import type { Hook } from '@oclif/core';
import { unknownCommandLine } from '../lib/usage.ts';

/**
 * `openmates serch x`: one line naming the closest command and the help, exit 2 (ADR 0122), where
 * oclif would say only `command serch:x not found`.
 */
const hook: Hook<'command_not_found'> = async function ({ id }) {
  const commands = this.config.commandIDs.map((command) => command.replaceAll(':', ' '));
  process.stderr.write(`${unknownCommandLine(id.split(':'), commands)}\n`);
  process.exitCode = 2;
};

export default hook;
