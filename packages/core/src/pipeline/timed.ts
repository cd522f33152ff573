/** A provider call ran past its timeout (told apart from the caller aborting). */
export class CallTimeout extends Error {
  override readonly name = 'CallTimeout';
}

/**
 * Runs `work` under its own timeout of `ms`, with a signal that aborts on that timeout or when
 * `caller` aborts. Rejects with CallTimeout when the timeout fired first, with the caller's reason
 * when it left, else as `work` does.
 *
 * The caller's abort reaches the call's own controller through one listener, removed when the call
 * ends: `AbortSignal.any` would do the same at several times the cost (it keeps weak references to
 * every source and follower), paid on every page of every search.
 */
export async function timed<T>(ms: number, caller: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  caller.throwIfAborted();
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new CallTimeout()), ms);
  const follow = () => own.abort(caller.reason);
  caller.addEventListener('abort', follow, { once: true });
  try {
    return await work(own.signal);
  } catch (error) {
    if (caller.aborted) throw caller.reason;
    if (own.signal.aborted) throw own.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    caller.removeEventListener('abort', follow);
  }
}
