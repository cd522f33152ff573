/**
 * The words of a question that do not decide what it is about, and the words people ask with that
 * reference pages say otherwise (ADR 0121). Both are lowercase; a query is compared word by word.
 */

/**
 * English function words and question words: `how do I center a div` searches `center div`. A query
 * made only of these keeps them (`how to`, `is`), and names are still looked up on the whole query
 * (`a element` finds `<a>`). Words that are also names on the web platform stay out of the list
 * (`get`, `for`, `in`, `if`, `this`, `while`, `with`: an HTTP method and JavaScript keywords).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    'a about after all an and any are as at be been being but by can could did do does doing done',
    'from had has have how i into is it its me my of on or our s should so some that the their them',
    'then there these those to using use want was way ways we were what when where which who why will',
    'would you your',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Words a question uses where reference text says something else, alone or several in a row, each
 * with the reference's words, which are searched as alternatives to them (`remove duplicates` also
 * finds `unique values`). Kept short and general: an entry says what a developer means by the words
 * anywhere on the web platform.
 */
export const QUESTION_VOCABULARY: ReadonlyMap<string, readonly string[]> = new Map([
  ['centre', ['center', 'align']],
  ['center', ['align']],
  ['centered', ['center', 'align']],
  ['centering', ['center', 'align']],
  ['dedupe', ['unique values']],
  ['deduplicate', ['unique values']],
  ['remove duplicates', ['unique values']],
  ['remove duplicate', ['unique values']],
  ['reconnect', ['connection', 'close']],
]);

/** The lengths in words of the vocabulary's entries, longest first. */
export const QUESTION_PHRASE_LENGTHS: readonly number[] = [
  ...new Set([...QUESTION_VOCABULARY.keys()].map((key) => key.split(' ').length)),
].sort((a, b) => b - a);
