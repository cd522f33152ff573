// The types of page-text.js, which packages/core/scripts/build-page-text.ts writes at build time
// (it is not committed). Hand-written: the module's shape, not its data.

/** The source packages the text was taken from, with their versions. */
export declare const PAGE_TEXT_SOURCES: Readonly<Record<string, string>>;
/** By MDN path (lowercase, after `https://developer.mozilla.org/docs/`): the page's summary, then its parts' summaries. */
export declare const PAGE_TEXT: Readonly<Record<string, readonly string[]>>;
