#!/usr/bin/env node
// The `openmates` binary. Node's compile cache goes on before anything else loads, and
// `openmates search` takes a fast path that never loads oclif (packages/cli/README.md, "Cold start").
import module from 'node:module';

// Written for any Node that can parse ES modules: on a Node older than `engines` in package.json,
// every command stops here with one line instead of failing deep inside (node:sqlite, for one, is
// missing, and before 22.16 it has no FTS5, which the local index is built on). The floor is written
// out rather than read, which would cost every start; a test holds it equal to `engines`.
const FLOOR = [22, 16];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < FLOOR[0] || (major === FLOOR[0] && minor < FLOOR[1])) {
  const { existsSync } = await import('node:fs');
  const checkout = existsSync(new URL('../../../scripts/bootstrap.sh', import.meta.url));
  process.stderr.write(
    `openmates: needs Node.js ${FLOOR.join('.')} or later (this is ${process.version}); ${
      checkout ? 'in this checkout, run `. scripts/bootstrap.sh` first.' : 'install a current Node.js LTS.'
    }\n`,
  );
  process.exit(1);
}

module.enableCompileCache?.();

// Node 22 marks node:sqlite experimental and says so on stderr at its first import; the local index
// depends on it on purpose (FTS5, no native build), so that line is noise to a user. Every other
// warning is printed as Node prints it.
const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
  const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
  if (type === 'ExperimentalWarning' && String(warning?.message ?? warning).startsWith('SQLite ')) return;
  return emitWarning.call(this, warning, ...rest);
};

const argv = process.argv.slice(2);

/** One line on stderr and exit 1: what escaped every command's own handling is a bug. */
function crash(error) {
  if (process.env.OPENMATES_DEBUG) process.stderr.write(`${error?.stack ?? error}\n`);
  process.stderr.write(
    `openmates: internal error (${error?.name ?? 'Error'}). This is a bug: rerun with OPENMATES_DEBUG=1 and report it.\n`,
  );
  process.exit(1);
}

try {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    const { versionLine } = await import('../dist/version.js');
    process.stdout.write(`${versionLine()}\n`, () => process.exit(0));
  } else {
    const searchAt = argv[0] === 'search' ? 1 : argv[0] === 'apps' && argv[1] === 'web' && argv[2] === 'search' ? 3 : 0;
    const rest = argv.slice(searchAt);
    const wantsHelp = rest.some((arg) => arg === '--help' || arg === '-h');
    const code =
      searchAt > 0 && !wantsHelp
        ? await (await import('../dist/fast-search.js')).fastSearch(rest)
        : argv[0] === 'mcp' && !wantsHelp
          ? await (await import('../dist/fast-mcp.js')).fastMcp(argv.slice(1))
          : undefined;
    if (code !== undefined) process.exit(code);
    const { execute } = await import('@oclif/core');
    await execute({ dir: import.meta.url });
    process.exit();
  }
} catch (error) {
  crash(error);
}
