/**
 * The script of the MCP App page (ADR 0088): runs in the host's sandboxed frame, receives the
 * `web_search` call's input and result through the extension's `App`, and draws the result's
 * groups with the GUI's display rules (`@openmates/result-display`). Every string from the result
 * becomes a text node; nothing is parsed as markup. Links open through the host.
 */
import { App, applyDocumentTheme, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import {
  ERROR_TABLE,
  type ErrorCode,
  type ErrorResponse,
  httpStatus,
  type WebSearchResponse,
} from '@openmates/contract';
import {
  ALTERED_LABEL,
  aboutCard,
  excerptsSummary,
  GROUP_FAILED,
  type GroupCard,
  groupCard,
  groupLabel,
  META_SEPARATOR,
  MORE_AVAILABLE,
  NOTE_LABEL,
  type ResultCard,
  refusalCard,
} from '@openmates/result-display';

type Child = Node | string | undefined | false;

/** An element with attributes and children; strings become text nodes, never markup. */
function h(tag: string, attributes: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children)
    if (child !== undefined && child !== false)
      element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

/** A field's text in its own span, marked with the field it shows. */
const field = (name: string, text: string, tag = 'span') => h(tag, { 'data-field': name }, text);

function resultItem(result: ResultCard): HTMLElement {
  const title = h('span', { 'data-title': '', 'data-field': 'title' }, result.title);
  const meta = result.meta.flatMap((part, i) => [
    i > 0 ? h('span', { 'aria-hidden': 'true' }, META_SEPARATOR) : undefined,
    field(part.field, part.text),
  ]);
  return h(
    'li',
    { class: 'result', 'data-result': '' },
    h('span', { class: `badge ${result.badge.colour}`, 'aria-hidden': 'true' }, result.badge.letter),
    h(
      'div',
      { class: 'body' },
      h(
        'h3',
        { class: 'title' },
        result.href
          ? h('a', { href: result.href, rel: 'noopener noreferrer', referrerpolicy: 'no-referrer' }, title)
          : title,
      ),
      h('p', { class: 'url' }, field('display_url', result.displayUrl, 'cite')),
      h('p', { class: 'description', 'data-description': '', 'data-field': 'description' }, result.description),
      result.extraSnippets.length > 0 &&
        h(
          'details',
          { class: 'excerpts', 'data-excerpts': '' },
          h('summary', {}, excerptsSummary(result.extraSnippets.length)),
          h('ul', {}, ...result.extraSnippets.map((snippet) => field('extra_snippet', snippet, 'li'))),
        ),
      result.note &&
        h('p', { class: 'note' }, h('span', { class: 'label' }, NOTE_LABEL), ' ', field('note', result.note)),
      meta.length > 0 && h('p', { class: 'meta' }, ...meta),
    ),
  );
}

function groupSection(card: GroupCard, query: string | undefined, index: number): HTMLElement {
  const headingId = `group-${index}-title`;
  return h(
    'section',
    {
      class: card.error ? 'group failed' : 'group',
      'data-group-id': card.id,
      'data-error-code': card.error?.code,
      'data-group-provider': card.provider,
      'aria-labelledby': headingId,
    },
    h(
      'h2',
      { id: headingId },
      h('span', { class: 'visually-hidden' }, groupLabel(index)),
      ' ',
      h('span', { class: 'query' }, query ?? `Query ${index + 1}`),
    ),
    card.shownId !== undefined && h('p', { class: 'group-id' }, 'Id ', field('id', card.shownId)),
    card.provider !== undefined &&
      h('p', { class: 'group-provider' }, 'Answered by ', field('provider', card.provider)),
    card.altered !== undefined &&
      h('p', { class: 'altered' }, `${ALTERED_LABEL} `, field('altered_query', card.altered, 'q')),
    card.error
      ? h(
          'div',
          { class: 'state error', role: 'note' },
          h('strong', {}, GROUP_FAILED),
          ' ',
          h('span', { class: 'code' }, '(', field('code', card.error.code), ')'),
          field('message', card.error.message, 'p'),
        )
      : card.empty
        ? h('p', { class: 'state empty' }, card.empty)
        : h('p', { class: 'count' }, card.count ?? ''),
    card.results.length > 0 && h('ol', { class: 'results' }, ...card.results.map(resultItem)),
    ...card.notices.map((notice) =>
      h('p', { class: 'notice' }, field(notice.field, String(notice.count)), ` ${notice.words}`),
    ),
    // The host runs the tool again for a next page; the page only says one exists.
    card.more && h('p', { class: 'more', 'data-field': 'more', 'data-more-results': '' }, MORE_AVAILABLE),
    // Where the answer came from and what it cost (docs/usage-and-quotas.md).
    card.usage && h('p', { class: 'usage', 'data-usage': card.usage.data }, card.usage.text),
  );
}

function responseView(response: WebSearchResponse, items: readonly CallItem[]): Node[] {
  const about = aboutCard(response);
  return [
    about.partial &&
      h(
        'p',
        { class: 'partial', 'data-response-code': about.partial.code },
        field('error', about.partial.error),
        about.partial.code && ' ',
        about.partial.code && h('span', { class: 'code' }, '(', field('code', about.partial.code), ')'),
      ),
    h(
      'div',
      {
        class: 'groups',
        'data-results': '',
        'data-response-code': response.code,
        'data-response-provider': response.provider,
      },
      ...response.results.map((group, i) =>
        groupSection(groupCard(group, { idSet: items[i]?.idSet === true }), items[i]?.query, i),
      ),
    ),
    about.suggestions.length > 0 &&
      h(
        'nav',
        { class: 'suggestions', 'aria-label': 'Related searches' },
        h('h2', {}, 'Related searches'),
        h('ul', {}, ...about.suggestions.map((s) => h('li', {}, field('suggestion', s)))),
      ),
    h(
      'div',
      { class: 'about', 'data-about': '' },
      h('p', {}, 'Answered by ', field('provider', about.provider)),
      about.usage !== undefined && h('p', { class: 'usage', 'data-usage-total': '' }, about.usage),
      about.fitted.length > 0 &&
        h(
          'p',
          { class: 'notice' },
          'Removed to fit the response size: ',
          ...about.fitted.flatMap((part, i) => [
            i > 0 ? ', ' : '',
            field(part.field, String(part.count)),
            ` ${part.words}`,
          ]),
          '.',
        ),
    ),
  ].filter((node): node is HTMLElement => node instanceof HTMLElement);
}

function refusalView(body: ErrorResponse): Node[] {
  // As the GUI says it: a request the API rejects as invalid (HTTP 400) is told apart from one it could not run.
  const invalid = body.code in ERROR_TABLE && httpStatus(body.code as ErrorCode) === 400;
  const card = refusalCard({ code: body.code, message: body.error, issues: body.issues ?? [] }, invalid);
  return [
    h(
      'div',
      {
        class: 'page-error',
        role: 'alert',
        'data-page-error': '',
        'data-error-code': card.code,
        'data-issue-paths': invalid ? JSON.stringify((body.issues ?? []).map((i) => i.path)) : undefined,
      },
      h('h2', {}, `${card.heading} `, h('span', { class: 'code' }, '(', field('code', card.code), ')')),
      field('message', card.message, 'p'),
      card.issues.length > 0 &&
        h(
          'ul',
          {},
          ...card.issues.map((issue) =>
            h('li', { 'data-issue': '' }, field('path', issue.path, 'code'), ': ', field('message', issue.message)),
          ),
        ),
      body.request_id !== undefined && h('p', { class: 'request-id' }, 'Request id: ', h('code', {}, body.request_id)),
    ),
  ];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the page needs of one item of the call: its query (undefined when not a string), and whether it set an id. */
interface CallItem {
  query: string | undefined;
  idSet: boolean;
}

/** The items of the call's arguments, in request order. */
function itemsOf(args: unknown): CallItem[] {
  const requests = isRecord(args) && Array.isArray(args.requests) ? args.requests : [];
  return requests.map((item) => ({
    query: isRecord(item) && typeof item.query === 'string' ? item.query : undefined,
    idSet: isRecord(item) && item.id !== undefined,
  }));
}

const area = document.getElementById('results') as HTMLElement;
let items: CallItem[] = [];

function show(...nodes: Node[]): void {
  area.replaceChildren(...nodes);
  area.setAttribute('aria-busy', 'false');
}

function render(structured: unknown): void {
  if (isRecord(structured) && Array.isArray(structured.results))
    show(...responseView(structured as unknown as WebSearchResponse, items));
  else if (isRecord(structured) && typeof structured.code === 'string' && typeof structured.error === 'string')
    show(...refusalView(structured as unknown as ErrorResponse));
  else show(h('p', { class: 'state empty' }, 'The host handed over no search results to show.'));
}

function applyTheme(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
}

const app = new App({ name: 'OpenMates web search results', version: '1' });
app.ontoolinput = ({ arguments: args }) => {
  items = itemsOf(args);
};
app.ontoolresult = (result) => render(result.structuredContent);
app.onhostcontextchanged = applyTheme;
// A link leaves through the host (the frame has no say over where it opens), never by itself.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!link) return;
  event.preventDefault();
  void app.openLink({ url: link.getAttribute('href') ?? '' });
});
void app.connect().then(() => applyTheme(app.getHostContext()));
