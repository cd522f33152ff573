import { BLOCK_ELEMENTS as BLOCK, HIDDEN_ELEMENTS as HIDDEN } from '../../hygiene/html-elements.ts';
import { htmlParser } from '../../hygiene/html-parser.ts';

/** What the HTML reader keeps of a page. Text is whitespace-collapsed plain text. */
export interface HtmlPage {
  /** `<title>` text. */
  title?: string;
  /** Text of the first `<h1>`. */
  h1?: string;
  /** `<meta name=description>` or `<meta property=og:description>`. */
  description?: string;
  /** `<html lang>`. */
  lang?: string;
  /** `<link rel=canonical href>`. */
  canonical?: string;
  /** `<meta property=og:url content>`. */
  ogUrl?: string;
  /** Visible text of the body (and of a fragment without `<body>`). */
  text: string;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Reads an HTML document or fragment with htmlparser2 (entities decoded once, `script`/`style`
 * contents dropped) and returns its title, metadata and visible text.
 */
export function readHtml(html: string): HtmlPage {
  const page: HtmlPage = { text: '' };
  const text: string[] = [];
  let hidden = 0;
  let inTitle = false;
  let title = '';
  let h1: string[] | undefined;
  let h1Done = false;
  const Parser = htmlParser();
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'html' && attributes.lang) page.lang = attributes.lang;
        else if (name === 'title') inTitle = true;
        else if (name === 'link' && /(^|\s)canonical(\s|$)/i.test(attributes.rel ?? '') && attributes.href)
          page.canonical ??= attributes.href.trim();
        else if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
          const content = attributes.content?.trim();
          if (content) {
            if (key === 'og:url') page.ogUrl ??= content;
            else if (key === 'description' || key === 'og:description') page.description ??= collapse(content);
          }
        } else if (name === 'h1' && !h1Done) h1 = [];
        if (HIDDEN.has(name)) hidden += 1;
        if (BLOCK.has(name)) text.push('\n');
      },
      ontext(data) {
        if (inTitle) title += data;
        if (hidden > 0 || inTitle) return;
        text.push(data);
        h1?.push(data);
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'h1' && h1 !== undefined) {
          page.h1 = collapse(h1.join(''));
          h1 = undefined;
          h1Done = page.h1 !== '';
        }
        if (BLOCK.has(name)) text.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const pageTitle = collapse(title);
  if (pageTitle !== '') page.title = pageTitle;
  if (page.h1 === '') delete page.h1;
  page.text = text
    .join('')
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
  return page;
}

/** Plain text of an HTML fragment (tags removed, entities decoded, whitespace collapsed). */
export function htmlToText(html: string): string {
  return collapse(readHtml(html).text);
}
