// The one line of a usage mistake the parser finds (an unknown flag or command, a flag without its
// value): what was wrong, the closest name when one is near, and where the help is (ADR 0122). The
// oclif commands and the `command_not_found` hook say it; the fast path of `bin/run.js` leaves every
// such mistake to them.

/** Edits (insert, delete, substitute, swap two neighbours) between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidate nearest `typed`, when it is near enough to be what was meant (at most a third of
 * its length in edits, at least 2), else undefined. Ties go to the earlier candidate.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}

const helpOf = (command: string | undefined) => `See \`openmates${command ? ` ${command}` : ''} --help\`.`;

/** `openmates: unknown flag --cout: did you mean \`--count\`? See \`openmates search --help\`.` */
export function unknownFlagLine(flag: string, known: readonly string[], command: string): string {
  const near = closest(flag, known);
  return `openmates: unknown flag ${flag}${near ? `: did you mean \`${near}\`?` : ` for \`openmates ${command}\`.`} ${helpOf(command)}`;
}

/**
 * `openmates: unknown command \`serch\`: did you mean \`search\`? See \`openmates --help\`.` The
 * typed words are matched against each command's words, as many as it has (`index ad` → `index add`).
 */
export function unknownCommandLine(typed: readonly string[], commands: readonly string[]): string {
  let best: { command: string; said: string; distance: number } | undefined;
  for (const command of commands) {
    const said = typed.slice(0, command.split(' ').length).join(' ');
    const distance = editDistance(said.toLowerCase(), command.toLowerCase());
    if (!best || distance < best.distance) best = { command, said, distance };
  }
  const near = best && closest(best.said, [best.command]);
  const shown = near && best ? best.said : (typed[0] ?? '');
  return `openmates: unknown command \`${shown}\`${near ? `: did you mean \`${near}\`?` : '.'} ${helpOf(undefined)}`;
}

/** A parse error's one line: its first line, without oclif's pointer to the help, then ours. */
export function parseErrorLine(message: string, command: string): string {
  const first = (message.split('\n')[0] ?? '').trim().replace(/([^.!?])$/, '$1.');
  return `openmates: ${first} ${helpOf(command)}`;
}
