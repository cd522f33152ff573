// The demo corpus's page text: each MDN page's own summary and its parts', which the core package's
// build extracts from @vscode/web-custom-data and @types/web (scripts/build-page-text.ts, ADR 0086).
import { LocalIndexError } from './local-index.ts';

/** A page's own summary, then the summaries of its parts, by MDN path (lowercase, after `/docs/`). */
export type PageText = Readonly<Record<string, readonly string[]>>;

/**
 * The page text the core package's build wrote. Its module is bundled into the CLI, so it is found
 * wherever the corpus is built; a source checkout that was never built has none.
 */
export async function pageText(): Promise<{ pages: PageText; sources: Readonly<Record<string, string>> }> {
  try {
    const { PAGE_TEXT, PAGE_TEXT_SOURCES } = await import('./generated/page-text.js');
    return { pages: PAGE_TEXT, sources: PAGE_TEXT_SOURCES };
  } catch (error) {
    throw new LocalIndexError(
      'the demo corpus page text is missing: build the core package first (pnpm turbo run build --filter=@openmates/core)',
      { cause: error },
    );
  }
}

const MDN_DOCS = 'https://developer.mozilla.org/docs/';

/** The page text of the MDN page at `url`, if it has any. */
export function pageTextOf(pages: PageText, url: string): readonly string[] | undefined {
  return url.startsWith(MDN_DOCS) ? pages[url.slice(MDN_DOCS.length).toLowerCase()] : undefined;
}
