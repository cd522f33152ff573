import { createRequire } from 'node:module';
import type { Parser } from 'htmlparser2';

// htmlparser2 (and the entity decoding tables it brings) loads on the first text that has markup or
// an entity: a search whose results are plain text does not pay for it at cold start. `require` of
// this ES module is synchronous (Node >= 22.12), so the readers that use it stay synchronous.
const requireModule = createRequire(import.meta.url);
let parserClass: typeof Parser | undefined;

/** htmlparser2's `Parser` class, loaded on the first call. */
export function htmlParser(): typeof Parser {
  parserClass ??= (requireModule('htmlparser2') as typeof import('htmlparser2')).Parser;
  return parserClass;
}
