/**
 * `build`'s value, built at the first call and kept. The contract's schemas are made this way, so a
 * process that never reads one (the CLI's search of a valid request) never pays for building it.
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
