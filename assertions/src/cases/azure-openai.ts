import { AZURE_OPENAI_CANARY_API_KEY } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest, Surface } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

// Cases against the OpenAI fixture served as Azure OpenAI's endpoint (ADR 0133: on the core, REST,
// CLI, SDK and MCP columns; the other columns that run the REST or SDK cases add nothing this
// provider changes, the transport being the same).
const provider = 'azure-openai' as const;
const surfaces: readonly Surface[] = ['core', 'rest', 'cli', 'sdk', 'mcp'];
const except: readonly Surface[] = [
  'cluster',
  'pip',
  'mcp-http',
  'mcp-2026',
  'mcp-http-2026',
  'stream',
  'sdk-stream',
  'pip-stream',
];
const columns = { surfaces, except };

/** The tool of each request Azure's fixture received, as sent. */
type Tool = { type?: string; user_location?: { country?: string }; filters?: { allowed_domains?: string[] } };
const tools = (requests: readonly ProviderRequest[]) =>
  requests.map((r) => ((r.body as { tools?: Tool[] } | undefined)?.tools ?? [])[0] ?? {});

/** A case whose request Azure refuses before any call, naming the field. */
function refused(name: string, item: Record<string, unknown>, field: string, env?: Record<string, string>): ParityCase {
  return {
    name: `azure-openai-refuses-${name}`,
    assertion: 'web-search.request.validated',
    description: `Azure OpenAI's hosted search cannot apply ${field} as asked: refused before any call, naming the field.`,
    provider,
    ...columns,
    ...(env === undefined ? {} : { env }),
    request: { requests: [{ query: 'anything', ...item }] },
    expect: { code: 'invalid_request', issuePaths: [`requests[0].${field}`], groups: [] },
    received: (requests) => check(requests.length === 0, `no call, got ${requests.length}`),
  };
}

/** A case where one upstream error class reaches the group as `code`, showing no key. */
function failing(name: string, query: string, code: string, env?: Record<string, string>): ParityCase {
  return {
    name: `azure-openai-${name}`,
    assertion: 'web-search.provider-error.visible',
    description: `Azure OpenAI failing with ${name} is a visible ${code} of the group, with no result and no key shown.`,
    provider,
    ...columns,
    ...(env === undefined ? {} : { env }),
    forbidden: [AZURE_OPENAI_CANARY_API_KEY],
    request: { requests: [{ query }] },
    expect: (outcome: Outcome) => {
      const [group] = outcome.groups;
      check(group?.errorCode === code, `${code}, got ${group?.errorCode}`);
      check(group?.results.length === 0, 'no results');
    },
  };
}

export const azureOpenAICases: ParityCase[] = [
  {
    name: 'azure-openai-country-and-domains-sent',
    assertion: 'web-search.results.bounded',
    description:
      'country goes as the tool’s user_location and include_domains as its filters.allowed_domains, to /openai/v1/responses with the api-key header, the deployment as model and max_tool_calls; count cuts the results.',
    provider,
    ...columns,
    request: { requests: [{ query: 'latest bun version', count: 2, country: 'DE', include_domains: ['example.com'] }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[0]?.errorCode === undefined, `answered: ${outcome.groups[0]?.errorCode}`);
      const urls = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      // count bounds the results; the included domain leaves only its pages.
      check(urls.length >= 1 && urls.length <= 2, `1 or 2 results, got ${urls.length}`);
      check(
        urls.every((url) => new URL(url).hostname.endsWith('example.com')),
        `only example.com: ${urls}`,
      );
    },
    received: (requests) => {
      check(requests.length >= 1, 'called');
      for (const request of requests) {
        check(request.query.path === '/openai/v1/responses', `path ${request.query.path}`);
        check(request.query.key === AZURE_OPENAI_CANARY_API_KEY, 'the key as api-key');
        const body = request.body as { model?: string; max_tool_calls?: number };
        check(
          body.model === 'gpt-4.1-mini' && body.max_tool_calls === 4,
          `model and max_tool_calls: ${JSON.stringify(body)}`,
        );
      }
      for (const tool of tools(requests)) {
        check(tool.type === 'web_search', `tool ${tool.type}`);
        check(tool.user_location?.country === 'DE', 'country as user_location');
        check(tool.filters?.allowed_domains?.join() === 'example.com', 'include_domains as allowed_domains');
      }
    },
  },
  {
    name: 'azure-openai-preview-answered',
    assertion: 'web-search.results.bounded',
    description:
      'With web_search_preview, Azure’s answer (its calls left at searching, no sources) is answered under Azure’s receipt rule, from the cited pages.',
    provider,
    ...columns,
    env: { OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'web_search_preview' },
    request: { requests: [{ query: 'latest bun version', count: 5 }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[0]?.errorCode === undefined, `answered: ${outcome.groups[0]?.errorCode}`);
      check((outcome.groups[0]?.results.length ?? 0) > 0, 'cited pages as results');
    },
    received: (requests) => {
      for (const tool of tools(requests)) check(tool.type === 'web_search_preview', `tool ${tool.type}`);
    },
  },
  refused('safesearch-strict', { safesearch: 'strict' }, 'safesearch'),
  refused('search-lang', { search_lang: 'de' }, 'search_lang'),
  refused('freshness', { freshness: 'pw' }, 'freshness'),
  refused('page', { page: 2 }, 'page'),
  refused('topic-news', { topic: 'news' }, 'topic'),
  refused('extra-snippets', { extra_snippets: true }, 'extra_snippets'),
  refused('include-domains-with-preview', { include_domains: ['example.com'] }, 'include_domains', {
    OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'web_search_preview',
  }),
  failing('auth', 'error401 x', 'provider_auth'),
  failing('rate-limited', 'error429 x', 'provider_rate_limited'),
  failing('server-error', 'error500 x', 'provider_error'),
  failing('malformed', 'malformed x', 'provider_error'),
  failing('unavailable', 'anything', 'provider_unavailable', { AZURE_OPENAI_ENDPOINT: 'http://127.0.0.1:9' }),
  {
    name: 'chain-azure-openai-fails-brave-answers',
    assertion: 'web-search.provider-error.visible',
    description:
      'Azure OpenAI first: the group it fails (a failed web search call) goes to Brave, which answers it; the other stays Azure’s.',
    provider: ['azure-openai', 'brave'],
    ...columns,
    forbidden: [AZURE_OPENAI_CANARY_API_KEY],
    request: {
      requests: [
        { id: 'azure', query: 'latest bun version', count: 2 },
        { id: 'failed', query: 'searchfailed rust', count: 2 },
      ],
    },
    expect: (outcome: Outcome) => {
      const [azure, failed] = outcome.groups;
      check(azure?.provider?.startsWith('Azure OpenAI') === true, `first group Azure's: ${azure?.provider}`);
      check(failed?.provider === 'Brave Search' && failed.results.length > 0, `second Brave's: ${failed?.provider}`);
    },
  },
  {
    name: 'chain-brave-fails-azure-openai-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Azure OpenAI second: the group Brave fails goes to Azure OpenAI, which answers it.',
    provider: ['brave', 'azure-openai'],
    ...columns,
    forbidden: [AZURE_OPENAI_CANARY_API_KEY],
    request: {
      requests: [
        { id: 'brave', query: 'rust vec', count: 2 },
        { id: 'failed', query: 'refused rust', count: 2 },
      ],
    },
    expect: (outcome: Outcome) => {
      const [brave, failed] = outcome.groups;
      check(brave?.provider === 'Brave Search', `first group Brave's: ${brave?.provider}`);
      check(
        failed?.provider?.startsWith('Azure OpenAI') === true && failed.results.length > 0,
        `second Azure's: ${failed?.provider}`,
      );
    },
  },
];
