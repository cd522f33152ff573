// Shared by the result hygiene (html-to-text.ts) and the local index's page reader, so that a page
// and a result snippet agree on what is visible text and where words break.

/**
 * Elements whose contents are never readable text: code, styling, embedded documents and
 * fallbacks, vector markup, and a document's head (its `<title>` is metadata of that document, not
 * of the search result). A bare `<title>` outside a head is kept: in a result field it is the text.
 */
export const HIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'noembed',
  'noframes',
  'canvas',
  'audio',
  'video',
]);

/** Elements that separate words when rendered, so `<p>a</p><p>b</p>` reads `a b`, not `ab`. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
]);

/**
 * Inline elements that change nothing in the text of a fragment: htmlparser2 gives them no special
 * treatment (none is void, raw text or RCDATA, foreign or an integration point, none opens with an
 * implied close), and none is in `HIDDEN_ELEMENTS` or `BLOCK_ELEMENTS`. Written bare (`<b>`,
 * `</b>`, any case), such a tag only separates text, so `htmlToText` can drop it without the parser.
 */
export const BARE_INLINE_ELEMENTS: readonly string[] = [
  'abbr',
  'b',
  'cite',
  'code',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
];
