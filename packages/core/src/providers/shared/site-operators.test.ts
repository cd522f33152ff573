import { loadRecordings, startBraveFixture } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { createLogger } from '../../logger.ts';
import { searchRecording } from '../../testing/recorded-replay.ts';
import { createConfiguredProvider } from '../registry.ts';
import { withoutSiteOperators, withSiteOperators } from './site-operators.ts';

const item = { query: 'rust', include_domains: ['example.com', 'docs.rs'], exclude_domains: ['bad.org'] };

describe('withoutSiteOperators', () => {
  it('removes the operators withSiteOperators writes, as written', () => {
    expect(withoutSiteOperators(withSiteOperators(item), item)).toBe('rust');
    const one = { query: 'rust traits', include_domains: ['example.com'] };
    expect(withoutSiteOperators(withSiteOperators(one), one)).toBe('rust traits');
  });

  it('removes them however echoed: case, order, OR joins with or without parentheses, anywhere', () => {
    expect(withoutSiteOperators('rust (SITE:docs.rs or site:Example.com) -Site:bad.org', item)).toBe('rust');
    expect(withoutSiteOperators('site:example.com OR site:docs.rs rust tutorial', item)).toBe('rust tutorial');
    expect(withoutSiteOperators('-site:bad.org rust  book site:docs.rs', item)).toBe('rust book');
    expect(withoutSiteOperators('(site:example.com) rust', item)).toBe('rust');
  });

  it('keeps operators for other domains, look-alikes and words that merely contain site:', () => {
    expect(withoutSiteOperators('rust site:other.com', item)).toBe('rust site:other.com');
    expect(withoutSiteOperators('rust site:example.community -site:bad.org.uk', item)).toBe(
      'rust site:example.community -site:bad.org.uk',
    );
    expect(withoutSiteOperators('rust website:example.com', item)).toBe('rust website:example.com');
    expect(withoutSiteOperators('rust site:example.com', { query: 'rust' })).toBe('rust site:example.com');
  });
});

describe('suggestions never echo the engine’s operators (recorded OpenAI answer)', () => {
  it('a recorded search run with site: for the allowed domain is suggested without it', async () => {
    // OpenAI searched "… site:wikipedia.org" for a query limited to wikipedia.org.
    const [recording] = loadRecordings({ provider: 'openai' }).filter(
      (r) => r.id === 'pydantic-ai-test_openai_responses_model_web_search_tool_with_allowed_domains',
    );
    if (recording === undefined) throw new Error('the recording is missing from the corpus');
    expect(recording.body).toContain('site:wikipedia.org');
    const query = recording.query ?? 'Tokyo population';
    const { response } = await searchRecording(recording, {
      requests: [{ query, include_domains: ['wikipedia.org'] }],
    });
    const suggestions = response.suggestions_follow_up_requests ?? [];
    expect(suggestions).toContain('Tokyo Metropolis population 2025');
    expect(suggestions.filter((s) => /site:/i.test(s))).toEqual([]);
  });
});

describe('suggestions never echo the engine’s operators (Brave fixture)', () => {
  it('Brave’s altered query, echoing the site: operators sent in q, is shown without them and not suggested', async () => {
    const brave = await startBraveFixture();
    try {
      const config = loadConfig({
        OPENMATES_PROVIDER: 'brave',
        BRAVE_SEARCH_API_KEY: brave.apiKey,
        BRAVE_SEARCH_BASE_URL: brave.baseUrl,
        OPENMATES_CACHE_TTL_S: '0',
      });
      const logger = createLogger({ level: 'silent', redact: (text) => text });
      const engine = createEngine({ config, provider: createConfiguredProvider(config), logger });
      const request = {
        query: 'altered rust book',
        include_domains: ['example.org', 'docs.rs'],
        exclude_domains: ['x.org'],
      };
      const { response } = await engine.search({ requests: [request] });
      // Brave answered `query.altered` "rust book (site:docs.rs OR site:example.org) -site:x.org".
      expect(brave.requests[0]?.query.q).toBe('altered rust book (site:docs.rs OR site:example.org) -site:x.org');
      expect(response.results[0]?.altered_query).toBe('rust book');
      expect(response.suggestions_follow_up_requests ?? []).toEqual([]);
    } finally {
      await brave.close();
    }
  });
});
