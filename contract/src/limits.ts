/**
 * Every limit of the web search contract, declared once. Lengths of text are counted in
 * Unicode code points unless the name says otherwise.
 */

/** Fewest request items in one batch. */
export const MIN_BATCH_ITEMS = 1;
/** Most request items in one batch. */
export const MAX_BATCH_ITEMS = 5;
/** Longest caller-supplied string id, in code points. */
export const MAX_ID_LENGTH = 64;
/** Longest query after cleaning, in code points. */
export const MAX_QUERY_LENGTH = 400;
/** Smallest `count` a caller may ask for. */
export const MIN_COUNT = 1;
/** Largest `count` a caller may ask for. */
export const MAX_COUNT = 20;
/** `count` when the caller gives none. */
export const DEFAULT_COUNT = 10;
/** The first result page (`page`), and the one a caller gets when it gives none. */
export const MIN_PAGE = 1;
/** The last result page a caller may ask for. */
export const MAX_PAGE = 10;
/** Fewest entries of `include_domains` or `exclude_domains` (an empty list is refused, not ignored). */
export const MIN_SCOPE_DOMAINS = 1;
/** Most entries of `include_domains` or `exclude_domains`. */
export const MAX_SCOPE_DOMAINS = 10;
/** Hard ceiling of results in one group, whatever the provider returns. */
export const MAX_RESULTS_PER_GROUP = 20;
/** Longest result title, in code points. */
export const MAX_TITLE_LENGTH = 300;
/** Longest result description, in code points. */
export const MAX_DESCRIPTION_LENGTH = 1000;
/**
 * Longest generated note on a result, in code points. A note is written by the provider's model
 * (for example the sentence that cited the result), never an excerpt of the page.
 */
export const MAX_NOTE_LENGTH = 1000;
/** Most page excerpts on one result (`extra_snippets`). */
export const MAX_EXTRA_SNIPPETS = 5;
/** Longest page excerpt, in code points. */
export const MAX_EXTRA_SNIPPET_LENGTH = 300;
/** Longest passthrough string (`age`, `language`), in code points. */
export const MAX_PASSTHROUGH_LENGTH = 64;
/** Longest result URL, in UTF-16 units of its normalized string. */
export const MAX_URL_LENGTH = 2048;
/** Most follow-up suggestions in one response. */
export const MAX_SUGGESTIONS = 5;
/** Longest suggestion, in code points (suggestions are queries). */
export const MAX_SUGGESTION_LENGTH = MAX_QUERY_LENGTH;
/** Longest altered query on a result group (`altered_query`), in code points (it is a query). */
export const MAX_ALTERED_QUERY_LENGTH = MAX_QUERY_LENGTH;
/** Longest error message carried in a response, in code points. */
export const MAX_ERROR_MESSAGE_LENGTH = 500;
/**
 * How far ahead of the server's clock a result's publication date may lie and still count as now
 * under `freshness` (24 hours): publishers date pages in their own time zone, up to 14 hours ahead
 * of UTC, and their clocks drift. It applies to the named periods and to a date range whose end is
 * open or today, never past a range's last day.
 */
export const MAX_PUBLISHED_AHEAD_MS = 86_400_000;
/** Largest HTTP request body, in bytes (64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Engine defaults, each overridable through the environment (docs/reference.md lists the variables). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;
export const DEFAULT_OPENAI_TIMEOUT_MS = 45_000;
/**
 * Searches OpenAI's hosted `web_search` may run for one query before its answer is refused
 * (`OPENMATES_OPENAI_MAX_SEARCHES`, from `MIN_OPENAI_MAX_SEARCHES` to `MAX_OPENAI_MAX_SEARCHES`):
 * one query normally needs one to three, and every search is billed. Page reads do not count.
 */
export const DEFAULT_OPENAI_MAX_SEARCHES = 4;
export const MIN_OPENAI_MAX_SEARCHES = 1;
export const MAX_OPENAI_MAX_SEARCHES = 20;
/** Anthropic's hosted search runs a model that searches, reads and answers (ADR 0129). */
export const DEFAULT_ANTHROPIC_TIMEOUT_MS = 60_000;
/**
 * Searches Anthropic's hosted `web_search` may run for one query (`OPENMATES_ANTHROPIC_MAX_SEARCHES`,
 * sent as the tool's `max_uses`, from `MIN_ANTHROPIC_MAX_SEARCHES` to `MAX_ANTHROPIC_MAX_SEARCHES`);
 * an answer that ran more is refused whole (ADR 0129). Every search is billed.
 */
export const DEFAULT_ANTHROPIC_MAX_SEARCHES = 4;
export const MIN_ANTHROPIC_MAX_SEARCHES = 1;
export const MAX_ANTHROPIC_MAX_SEARCHES = 10;
/** SearXNG waits for its slowest engines (their own timeouts are a few seconds each). */
export const DEFAULT_SEARXNG_TIMEOUT_MS = 15_000;
export const DEFAULT_CACHE_TTL_S = 300;
export const DEFAULT_MAX_SOURCES = 100;
export const DEFAULT_MAX_RESPONSE_BYTES = 262_144;
/**
 * Smallest accepted `OPENMATES_MAX_RESPONSE_BYTES`. Output fitting never drops a group, its id or
 * its error, so the ceiling must hold the largest response without results that these limits
 * allow: 5 groups with 64-code-point ids and 500-code-point error messages, the response-level
 * error and the budget report, with every code point at its worst JSON cost (6 bytes for an
 * escaped control character). That is about 21 KB; 32 KiB leaves room to spare.
 */
export const MIN_MAX_RESPONSE_BYTES = 32_768;
export const DEFAULT_RATE_LIMIT_PER_MIN = 60;
/**
 * The keyless per-client default when every provider of the chain costs nothing (ADR 0115): one
 * person's GUI, curl and SDK scripts never meet it; a loopback caller may still be a reverse proxy
 * for many, so a limit stays.
 */
export const DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN = 6_000;
/** The per-key limit's window when `OPENMATES_RATE_LIMIT_WINDOW_S` is unset. */
export const DEFAULT_RATE_LIMIT_WINDOW_S = 60;
/** Shared state in Redis (docs/deploy.md): per-command timeout and key prefix. */
export const DEFAULT_REDIS_TIMEOUT_MS = 100;
export const DEFAULT_REDIS_PREFIX = 'openmates:';
/**
 * With several providers listed, no new attempt for a group starts this long after the request
 * began (`OPENMATES_REQUEST_DEADLINE_MS`); a call already running ends by its own timeout.
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;
/** How long a provider's 429 without `Retry-After` pauses every replica. */
export const DEFAULT_PROVIDER_PAUSE_MS = 1_000;
