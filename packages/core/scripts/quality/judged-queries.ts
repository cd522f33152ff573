/**
 * The judged query set of `pnpm bench:quality`: what a person types to find one MDN reference page,
 * and that page (MDN's own URL, as BCD records it). Written from MDN's pages: each query is the page's
 * name as its title gives it, or as people shorten it (no brackets, no `prototype`, a category word
 * added), or the words of its task. `regression` marks the fixed subset the test command runs.
 */
export interface JudgedQuery {
  query: string;
  /** The MDN page that answers it. */
  expect: string;
  /** In the fixed subset run by the test command (`quality.test.ts`). */
  regression?: true;
}

const MDN = 'https://developer.mozilla.org/docs/';
const element = (name: string) => `${MDN}Web/HTML/Reference/Elements/${name}`;
const css = (kind: string, name: string) => `${MDN}Web/CSS/Reference/${kind}/${name}`;
const js = (path: string) => `${MDN}Web/JavaScript/Reference/${path}`;
const api = (path: string) => `${MDN}Web/API/${path}`;
const http = (path: string) => `${MDN}Web/HTTP/Reference/${path}`;

export const JUDGED_QUERIES: readonly JudgedQuery[] = [
  // Names written with brackets, sigils or a category word: the issue's own examples first.
  { query: 'div element', expect: element('div'), regression: true },
  { query: 'code element', expect: element('code'), regression: true },
  { query: 'dialog element', expect: element('dialog'), regression: true },
  { query: 'input type date', expect: element('input/date'), regression: true },
  { query: 'color value type', expect: css('Values', 'color_value'), regression: true },
  { query: '@media', expect: css('At-rules', '@media'), regression: true },
  { query: 'div', expect: element('div'), regression: true },
  { query: 'Array map', expect: js('Global_Objects/Array/map'), regression: true },
  { query: ':has', expect: css('Selectors', ':has'), regression: true },
  { query: '<img>', expect: element('img') },
  { query: 'a element', expect: element('a') },
  { query: 'input element', expect: element('input') },
  { query: 'select element', expect: element('select') },
  { query: 'template element', expect: element('template') },
  { query: 'video element', expect: element('video') },
  { query: 'canvas', expect: element('canvas') },
  { query: '<length>', expect: css('Values', 'length') },
  { query: 'length value type', expect: css('Values', 'length') },
  { query: 'calc()', expect: css('Values', 'calc') },
  { query: 'var()', expect: css('Values', 'var') },
  { query: '@keyframes', expect: css('At-rules', '@keyframes') },
  { query: '@container', expect: css('At-rules', '@container') },
  { query: '@font-face', expect: css('At-rules', '@font-face') },
  { query: '@supports', expect: css('At-rules', '@supports') },
  { query: 'import at-rule', expect: css('At-rules', '@import') },
  { query: ':hover', expect: css('Selectors', ':hover') },
  { query: '::before', expect: css('Selectors', '::before') },
  { query: 'nth-child', expect: css('Selectors', ':nth-child') },
  { query: 'hidden attribute', expect: `${MDN}Web/HTML/Reference/Global_attributes/hidden` },
  // CSS properties.
  { query: 'display', expect: css('Properties', 'display') },
  { query: 'grid-template-columns', expect: css('Properties', 'grid-template-columns') },
  { query: 'position property', expect: css('Properties', 'position') },
  { query: 'box-shadow', expect: css('Properties', 'box-shadow') },
  { query: 'z-index', expect: css('Properties', 'z-index') },
  { query: 'aspect-ratio', expect: css('Properties', 'aspect-ratio') },
  { query: 'font-family', expect: css('Properties', 'font-family') },
  { query: 'color property', expect: css('Properties', 'color') },
  // JavaScript, as people shorten it.
  { query: 'Array.prototype.map()', expect: js('Global_Objects/Array/map') },
  { query: 'array filter', expect: js('Global_Objects/Array/filter') },
  { query: 'Array forEach', expect: js('Global_Objects/Array/forEach') },
  { query: 'array reduce', expect: js('Global_Objects/Array/reduce') },
  { query: 'Promise.all', expect: js('Global_Objects/Promise/all') },
  { query: 'JSON.parse', expect: js('Global_Objects/JSON/parse') },
  { query: 'Object.keys', expect: js('Global_Objects/Object/keys') },
  { query: 'String replaceAll', expect: js('Global_Objects/String/replaceAll') },
  { query: 'Intl.DateTimeFormat', expect: js('Global_Objects/Intl/DateTimeFormat') },
  { query: 'Map', expect: js('Global_Objects/Map') },
  { query: 'await', expect: js('Operators/await') },
  // Web APIs.
  { query: 'fetch', expect: api('Window/fetch') },
  { query: 'AbortController', expect: api('AbortController') },
  { query: 'localStorage', expect: api('Window/localStorage') },
  { query: 'addEventListener', expect: api('EventTarget/addEventListener') },
  { query: 'querySelectorAll', expect: api('Document/querySelectorAll') },
  { query: 'IntersectionObserver', expect: api('IntersectionObserver') },
  { query: 'ResizeObserver', expect: api('ResizeObserver') },
  { query: 'WebSocket', expect: api('WebSocket') },
  { query: 'URLSearchParams', expect: api('URLSearchParams') },
  { query: 'clipboard writeText', expect: api('Clipboard/writeText') },
  { query: 'structuredClone', expect: api('Window/structuredClone') },
  { query: 'classList', expect: api('Element/classList') },
  // A task in a person's words: the corpus holds BCD's and web-features' short descriptions, not
  // MDN's page text, so only tasks those words cover can be found.
  { query: 'fetch abort', expect: api('AbortController') },
  { query: 'element visible in viewport', expect: api('IntersectionObserver') },
  { query: 'deep copy object', expect: api('Window/structuredClone') },
  { query: 'dark mode media query', expect: css('At-rules', '@media/prefers-color-scheme') },
  // HTTP.
  { query: 'Content-Security-Policy header', expect: http('Headers/Content-Security-Policy') },
  { query: 'Access-Control-Allow-Origin', expect: http('Headers/Access-Control-Allow-Origin') },
  { query: 'Cache-Control', expect: http('Headers/Cache-Control') },
  { query: 'POST method', expect: http('Methods/POST') },
  { query: 'GET request method', expect: http('Methods/GET') },
];
