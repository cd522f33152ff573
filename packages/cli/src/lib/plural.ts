/** `n` with the noun in the form its number takes: `1 document`, `3 documents`, `0 files`. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
