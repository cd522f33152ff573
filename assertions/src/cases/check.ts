/** Throws unless `condition` holds; cases use it for outcomes that are checked rather than spelled out. */
export function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
