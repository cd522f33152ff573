import {
  type BraveFixture,
  SEARXNG_CANARY_PASSWORD,
  type SearxngFixture,
  startBraveFixture,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { braveDryRunRequest } from '../brave/probe.ts';
import { braveModule } from '../brave/settings.ts';
import { searxngDryRunRequest } from '../searxng/probe.ts';
import { searxngModule } from '../searxng/settings.ts';
import { LIVE_PROBE_QUERY } from './probes.ts';

// `openmates doctor --dry-run` and `--live` of Brave and SearXNG, against their fixtures: the dry
// run is the request a search sends, secrets redacted, and sends nothing; the live probe is one
// search of fixed text.

let brave: BraveFixture;
let searxng: SearxngFixture;
beforeAll(async () => {
  [brave, searxng] = await Promise.all([startBraveFixture(), startSearxngFixture()]);
});
afterAll(async () => {
  await Promise.all([brave.close(), searxng.close()]);
});
beforeEach(() => {
  brave.reset();
  searxng.reset();
});

const signal = () => new AbortController().signal;

describe('Brave', () => {
  const settings = () =>
    loadConfig({ BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl }).settings.brave;

  it('--dry-run is the GET a search sends, the subscription token redacted, nothing sent', () => {
    const dry = braveDryRunRequest({ query: 'rust', country: 'DE', freshness: 'week' }, settings().baseUrl);
    expect(dry).toEqual({
      provider: 'brave',
      recipient: new URL(brave.baseUrl).host,
      method: 'GET',
      url: `${brave.baseUrl}/web/search?q=rust&count=20&freshness=pw&country=DE&safesearch=moderate&text_decorations=false&result_filter=web`,
      headers: { Accept: 'application/json', 'X-Subscription-Token': '[redacted]' },
    });
    expect(JSON.stringify(dry)).not.toContain(brave.apiKey);
    expect(braveModule.dryRun?.(settings(), 'rust')?.url).toContain('/web/search?q=rust&');
    expect(brave.requests).toHaveLength(0);
  });

  it('--live searches fixed text once and reports the results', async () => {
    const checks = await braveModule.liveProbe?.(settings(), signal());
    expect(checks).toEqual([expect.objectContaining({ name: 'brave live search', ok: true })]);
    expect(brave.requests.map((r) => r.query.q)).toEqual([LIVE_PROBE_QUERY]);
    const refused = await braveModule.liveProbe?.({ ...settings(), apiKey: 'badkey-0000' }, signal());
    expect(refused?.[0]?.ok).toBe(false);
  });
});

describe('SearXNG', () => {
  const settings = () => loadConfig({ SEARXNG_BASE_URL: searxng.baseUrl }).settings.searxng;

  it('--dry-run is the GET a search sends, the basic-auth credentials redacted, nothing sent', () => {
    const dry = searxngDryRunRequest(settings(), { query: 'rust', search_lang: 'de' });
    expect(dry?.method).toBe('GET');
    expect(dry?.url).toBe(`${searxng.plainBaseUrl}/search?q=rust&format=json&language=de&safesearch=1&pageno=1`);
    expect(dry?.headers.Authorization).toBe('Basic [redacted]');
    expect(JSON.stringify(dry)).not.toContain(SEARXNG_CANARY_PASSWORD);
    expect(searxngModule.dryRun?.(settings(), 'rust')?.headers.Authorization).toBe('Basic [redacted]');
    expect(searxng.requests).toHaveLength(0);
  });

  it('--live searches fixed text once and reports the results', async () => {
    const checks = await searxngModule.liveProbe?.(settings(), signal());
    expect(checks).toEqual([expect.objectContaining({ name: 'searxng live search', ok: true })]);
    expect(searxng.requests.map((r) => r.query.q)).toEqual([LIVE_PROBE_QUERY]);
  });
});
