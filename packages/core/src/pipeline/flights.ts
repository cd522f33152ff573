import { cacheIdentity, type NormalizedRequestItem } from '@openmates/contract';

/**
 * One provider call in flight and the searches waiting for it (ADR 0134): the call runs under its
 * own signal, aborted only when every search that waits for it has left.
 */
interface Flight<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiting: number;
}

/** A member's calls in flight in this process, by the cache identity of their item. */
export type Flights<T> = Map<string, Flight<T>>;

/**
 * Waits for `flight` on behalf of a search whose signal is `signal`: its result, or its failure;
 * when the search leaves first, the wait rejects with its reason, and the call is aborted if no
 * other search still waits for it.
 */
function follow<T>(flights: Flights<T>, key: string, flight: Flight<T>, signal: AbortSignal): Promise<T> {
  flight.waiting += 1;
  return new Promise<T>((resolve, reject) => {
    const leave = () => {
      flight.waiting -= 1;
      if (flight.waiting === 0) {
        // Nobody waits: the call ends, and no later search joins a call being aborted.
        if (flights.get(key) === flight) flights.delete(key);
        flight.controller.abort(signal.reason);
      }
      reject(signal.reason);
    };
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave, { once: true });
    const done = () => {
      signal.removeEventListener('abort', leave);
      flight.waiting -= 1;
    };
    flight.promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** The call in flight for an item identical to `item`, to wait for; undefined when there is none. */
export function joinFlight<T>(
  flights: Flights<T>,
  item: NormalizedRequestItem,
  signal: AbortSignal,
): Promise<T> | undefined {
  const key = cacheIdentity(item);
  const flight = flights.get(key);
  return flight ? follow(flights, key, flight, signal) : undefined;
}

/**
 * Starts `call` for `item` as a flight others may join until it settles, and waits for it on
 * behalf of the search whose signal is `signal`. `call` gets the flight's signal.
 */
export function startFlight<T>(
  flights: Flights<T>,
  item: NormalizedRequestItem,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const key = cacheIdentity(item);
  const controller = new AbortController();
  const promise = call(controller.signal);
  const flight: Flight<T> = { promise, controller, waiting: 0 };
  flights.set(key, flight);
  const land = () => {
    if (flights.get(key) === flight) flights.delete(key);
  };
  // Every search waiting has its own handler; a call whose searches all left rejects to nobody.
  promise.then(land, land);
  return follow(flights, key, flight, signal);
}
