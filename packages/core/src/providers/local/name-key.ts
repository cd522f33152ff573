import { words } from './split-identifiers.ts';

/**
 * The name a title gives and a query asks for, reduced to what a person types: `<div> HTML element`,
 * `div element`, `<div>` and `div` all read `div`; `@media CSS at-rule` and `@media` read `media`;
 * `Array.prototype.map()`, `Array: map` and `Array map` read `array map`. The local index stores this
 * key per document, and a document whose key equals the query's ranks before BM25's order.
 */

/**
 * Category words a title ends with and a person may add or leave out (`div element`, `color value
 * type`): the demo corpus's labels and the short forms people type. At most one is removed, the
 * longest that matches, so `content-type header` keeps its `type`. `(web platform feature)` is not
 * one: a feature named after an element is about the element, not the element's own page.
 */
const TRAILING_LABELS: readonly (readonly string[])[] = [
  'html global attribute',
  'http response status',
  'http request method',
  'web app manifest member',
  'css value type',
  'css data type',
  'css pseudo class',
  'css pseudo element',
  'css at rule',
  'javascript built in',
  'javascript statement',
  'javascript operator',
  'webextensions api',
  'html element',
  'html tag',
  'html attribute',
  'svg element',
  'svg attribute',
  'mathml element',
  'css property',
  'css selector',
  'css function',
  'http header',
  'http method',
  'http status',
  'global attribute',
  'value type',
  'data type',
  'pseudo class',
  'pseudo element',
  'at rule',
  'static method',
  'instance method',
  'static property',
  'instance property',
  'media feature',
  'web api',
  'element',
  'tag',
  'property',
  'selector',
  'attribute',
  'header',
  'method',
  'constructor',
  'event',
  'function',
  'interface',
  'statement',
  'operator',
  'parameter',
]
  .map((label) => label.split(' '))
  .sort((a, b) => b.length - a.length);

/** The name key of a title (as the index stores it); `''` when it has no words. */
export function nameKey(text: string): string {
  return nameKeys(text)[0] ?? '';
}

/**
 * The keys a query may name a title by: its name key, and its words as they are when a label was
 * removed (`<filter-function>` is named `filter function`, not `filter`). Empty without words.
 */
export function nameKeys(text: string): string[] {
  // `prototype` is the part of `Array.prototype.map()` nobody types.
  const all = words(text.toLowerCase()).filter((word) => word !== 'prototype');
  if (all.length === 0) return [];
  for (const label of TRAILING_LABELS) {
    if (all.length <= label.length) continue;
    const tail = all.length - label.length;
    if (label.every((word, i) => all[tail + i] === word)) return [all.slice(0, tail).join(' '), all.join(' ')];
  }
  return [all.join(' ')];
}
