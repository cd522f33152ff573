/** A provider call ran past its timeout (told apart from the caller aborting). */
export class CallTimeout extends Error {
  override readonly name = 'CallTimeout';
}

/**
 * Runs `work` under its own timeout of `ms`, with a signal that aborts on that timeout or when
 * `caller` aborts. Rejects with CallTimeout when the timeout fired first, with the caller's reason
 * when it left, else as `work` does.
 */
export async function timed<T>(ms: number, caller: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  caller.throwIfAborted();
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new CallTimeout()), ms);
  try {
    return await work(AbortSignal.any([caller, own.signal]));
  } catch (error) {
    if (caller.aborted) throw caller.reason;
    if (own.signal.aborted) throw own.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
