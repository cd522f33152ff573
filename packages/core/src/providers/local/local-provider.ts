import { freshnessWindow, MAX_COUNT, MAX_PAGE, MIN_PAGE, parseFreshness } from '@openmates/contract';
import { isTabloidHost } from '../../hygiene/index.ts';
import {
  type Capabilities,
  type DoctorCheck,
  type ProviderAnswer,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RawCandidate,
  type RunCall,
  type SearchProvider,
} from '../../provider.ts';
import { ensureDemoCorpusIn } from './demo-corpus.ts';
import { type LocalHit, type LocalIndex, openIndex } from './local-index.ts';

export interface LocalProviderConfig {
  /** The index file (see `defaultIndexPath`). */
  indexPath: string;
  /** Build the demo corpus into an empty index on first use (default true). */
  demo?: boolean;
}

/** The local provider, with a way to open the index (and build the demo corpus) before the first query. */
export interface LocalProvider extends SearchProvider {
  readonly indexPath: string;
  /** Opens the index and builds the demo corpus if wanted; throws ProviderNotConfiguredError when it cannot. */
  ready(): Promise<void>;
}

/**
 * What the local index can do: every option but `country`, which has no meaning for it, and
 * `topic: news`, which it has no news for. The domains are matched on each document's host,
 * `freshness` on its `published` date (a document without one never matches); `extra_snippets` are
 * cut from each document's indexed text around the query's words; `page` offsets its ranking (ADR
 * 0103). It makes no remote call, so nothing is retried.
 */
export const LOCAL_CAPABILITIES: Capabilities = {
  inProcess: true,
  honoured: [
    'count',
    'page',
    'search_lang',
    'safesearch',
    'filter_tabloids',
    'freshness',
    'include_domains',
    'exclude_domains',
    'extra_snippets',
  ],
  refuses: [
    {
      option: 'topic',
      label: 'topic "news"',
      applies: (item) => item.topic === 'news',
      reason: 'it holds the documents added to it, no news',
      rule: 'topic "news" is refused: the local index holds the documents added to it, no news; omit it.',
    },
  ],
  retry: { maxRetries: 0, maxWaitMs: 0, unnamed: { retry: false, waitMs: 0, pauseMs: 0 } },
};

/** The index's search options for a query, `limit` hits at most. */
function searchOptions(query: ProviderQuery, call: RunCall, limit: number): Parameters<LocalIndex['search']>[1] {
  const options: Parameters<LocalIndex['search']>[1] = {
    limit,
    familyFriendlyOnly: query.safesearch === 'strict',
  };
  if (query.search_lang !== undefined) options.language = query.search_lang;
  if (query.include_domains !== undefined) options.includeDomains = query.include_domains;
  if (query.exclude_domains !== undefined) options.excludeDomains = query.exclude_domains;
  const freshness = query.freshness === undefined ? undefined : parseFreshness(query.freshness);
  if (freshness !== undefined) options.published = freshnessWindow(freshness, call.wallClock);
  if (query.extra_snippets === true) options.excerpts = true;
  return options;
}

/**
 * What a caller is told when the index cannot be used. The reason names the file on the server's disk,
 * which a remote caller has no business knowing: it goes to the cause (the engine logs it) and to
 * `openmates doctor`, never into the answer.
 */
export const LOCAL_INDEX_UNUSABLE =
  'The local index cannot be opened or read; `openmates doctor` on the server names the file and the cause.';

/** The operator's reason: the cause of a not-configured error (which names the file), or the error itself. */
function reasonOf(error: unknown): string {
  const cause = error instanceof ProviderNotConfiguredError ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

function notConfigured(error: unknown): ProviderNotConfiguredError {
  if (error instanceof ProviderNotConfiguredError) return error;
  return new ProviderNotConfiguredError(LOCAL_INDEX_UNUSABLE, { cause: error });
}

/** Most hits read for one page: every page up to the last, each of the largest count, twice over for tabloids. */
const MAX_HITS = MAX_PAGE * MAX_COUNT * 2;

/**
 * Result page `query.page` of the index's ranking (ADR 0103): hits the engine keeps (with
 * `filter_tabloids`, those on no tabloid host; the scope is the index's own query, and its URLs are
 * valid and unique), `count` a page, page N starting right after the (N − 1)·count first of them,
 * so two pages never share a hit and follow the index's order. The index is asked for every page up
 * to this one and one hit more (which says whether more exist), then for twice as many while
 * tabloids removed too many and the index had more.
 */
function rankedPage(index: LocalIndex, query: ProviderQuery, call: RunCall): ProviderAnswer {
  const skip = ((query.page ?? MIN_PAGE) - 1) * query.count;
  const wanted = skip + query.count + 1;
  const kept = (hit: LocalHit) => !query.filter_tabloids || !isTabloidHost(new URL(hit.url).hostname);
  let limit = wanted;
  let hits = index.search(query.query, searchOptions(query, call, limit));
  let keep = hits.filter(kept);
  while (keep.length < wanted && hits.length === limit && limit < MAX_HITS) {
    limit = Math.min(limit * 2, MAX_HITS);
    hits = index.search(query.query, searchOptions(query, call, limit));
    keep = hits.filter(kept);
  }
  return { candidates: keep.slice(skip, skip + query.count).map(toCandidate), more: keep.length > skip + query.count };
}

function toCandidate(hit: LocalHit): RawCandidate {
  // The index stores plain text (HTML files and the demo corpus's HTML are turned into text when
  // they are added), so a stored `<div>` is the name of an element, not markup.
  const candidate: RawCandidate = { format: 'text', url: hit.url, title: hit.title, description: hit.description };
  if (hit.excerpts !== undefined) candidate.extra_snippets = hit.excerpts;
  if (hit.published !== undefined) {
    candidate.age = hit.published;
    candidate.published = hit.published;
  }
  if (hit.language !== undefined) candidate.language = hit.language;
  if (hit.family_friendly !== undefined) candidate.family_friendly = hit.family_friendly;
  return candidate;
}

/**
 * The `local` provider: an SQLite FTS5 index on this machine. The index is opened on first use
 * (and the demo corpus built into it when it is empty, unless `demo: false`); an index that cannot
 * be opened or read is ProviderNotConfiguredError (503 `not_configured`).
 */
export function createLocalProvider(config: LocalProviderConfig): LocalProvider {
  let opening: Promise<LocalIndex> | undefined;
  let closed = false;

  const open = (): Promise<LocalIndex> => {
    opening ??= (async () => {
      const index = openIndex(config.indexPath);
      try {
        if (config.demo !== false) await ensureDemoCorpusIn(index);
        return index;
      } catch (error) {
        index.close();
        throw error;
      }
    })().catch((error: unknown) => {
      // A failed open is retried on the next call: the file may be fixed while a server runs.
      opening = undefined;
      throw notConfigured(error);
    });
    return opening;
  };

  return {
    id: 'local',
    name: 'Local index',
    recipient: 'this machine',
    capabilities: LOCAL_CAPABILITIES,
    indexPath: config.indexPath,
    async ready() {
      await open();
    },
    translator: {
      kind: 'run',
      async run(query, call): Promise<ProviderAnswer> {
        const index = await open();
        try {
          return rankedPage(index, query, call);
        } catch (error) {
          throw notConfigured(error);
        }
      },
    },
    async doctor(): Promise<DoctorCheck[]> {
      try {
        const index = await open();
        const stats = index.stats();
        const demo = stats.demoCorpus === undefined ? '' : `, demo corpus ${stats.demoCorpus}`;
        return [
          {
            name: 'local index',
            ok: stats.documents > 0,
            detail: `${config.indexPath}: ${stats.documents} documents${demo}`,
            ...(stats.documents > 0 ? {} : { fix: 'add documents with `openmates index add PATH…`' }),
          },
        ];
      } catch (error) {
        return [
          {
            name: 'local index',
            ok: false,
            detail: reasonOf(error),
            fix: 'check the file (OPENMATES_INDEX) or remove it so that it is created again',
          },
        ];
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      const pending = opening;
      opening = undefined;
      if (pending !== undefined) (await pending.catch(() => undefined))?.close();
    },
  };
}
