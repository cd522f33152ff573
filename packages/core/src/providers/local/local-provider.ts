import { freshnessWindow, parseFreshness } from '@openmates/contract';
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
 * What the local index can do: every option but `country`, which has no meaning for it. The domains
 * are matched on each document's host, `freshness` on its `published` date (a document without one
 * never matches); `extra_snippets` are cut from each document's indexed text around the query's
 * words. It makes no remote call, so nothing is retried.
 */
export const LOCAL_CAPABILITIES: Capabilities = {
  honoured: [
    'count',
    'search_lang',
    'safesearch',
    'filter_tabloids',
    'freshness',
    'include_domains',
    'exclude_domains',
    'extra_snippets',
  ],
  retry: { maxRetries: 0, maxWaitMs: 0, unnamed: { retry: false, waitMs: 0, pauseMs: 0 } },
};

/** The index's search options for a query. */
function searchOptions(query: ProviderQuery, call: RunCall): Parameters<LocalIndex['search']>[1] {
  const options: Parameters<LocalIndex['search']>[1] = {
    limit: query.fetchCount,
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
          return { candidates: index.search(query.query, searchOptions(query, call)).map(toCandidate) };
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
