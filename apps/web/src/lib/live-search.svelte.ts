import type { ResultGroup } from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';
import type { Outcome } from './outcome.ts';
import { groupAnnouncement, streamSearch } from './search-stream.ts';

/**
 * One search streaming into the page: every query in request order, each filled in when its
 * `group` event arrives, then the final outcome (the `done` response replaces the provisional
 * groups: fitting the whole response may have cut them). Each finished group is announced once.
 */
export class LiveSearch {
  /** What this search came from (the page's `data.stream`), so the page can tell it is current. */
  readonly source: object;
  /** The queries, in request order. */
  readonly queries: string[];
  /** The group of each query once it arrived, in request order (provisional until `outcome`). */
  groups: (ResultGroup | undefined)[] = $state([]);
  /** One sentence per finished group, in the order they finished. */
  announcements: string[] = $state([]);
  /** The final outcome; undefined while streaming. */
  outcome: Outcome | undefined = $state();
  readonly #ids: string[];
  readonly #controller = new AbortController();

  constructor(source: object, request: WebSearchRequest, ids: string[]) {
    this.source = source;
    this.queries = request.requests.map((item) => item.query);
    this.#ids = ids;
    this.groups = ids.map(() => undefined);
    streamSearch(request, { signal: this.#controller.signal, onGroup: (group) => this.#arrived(group) }).then(
      (outcome) => {
        this.outcome = outcome;
      },
      () => {
        // Aborted: the page moved on, nobody is left to show it to.
      },
    );
  }

  /** Stops the search: the endpoint, the API and the provider calls still running all let go. */
  abort(): void {
    this.#controller.abort();
  }

  #arrived(group: ResultGroup): void {
    const index = this.#ids.indexOf(String(group.id));
    if (index < 0 || this.groups[index] !== undefined) return;
    this.groups[index] = group;
    this.announcements.push(groupAnnouncement(this.queries[index] ?? '', group));
  }
}
