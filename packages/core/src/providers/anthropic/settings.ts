import {
  DEFAULT_ANTHROPIC_MAX_SEARCHES,
  DEFAULT_ANTHROPIC_TIMEOUT_MS,
  MAX_ANTHROPIC_MAX_SEARCHES,
  MIN_ANTHROPIC_MAX_SEARCHES,
  once,
} from '@openmates/contract';
import { z } from 'zod';
import { ProviderNotConfiguredError } from '../../provider.ts';
import {
  blankToUndefined,
  type EnvTable,
  httpUrl,
  parseEnv,
  secret,
  wholeNumber,
  withDefault,
} from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { liveProbe } from './probe.ts';
import { createAnthropicProvider } from './provider.ts';
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_MODEL,
  type AnthropicSettings,
  anthropicDryRun,
} from './request.ts';

export type { AnthropicSettings } from './request.ts';

const ENVIRONMENT = {
  ANTHROPIC_API_KEY: {
    description: 'An Anthropic API key (a secret); what is sent where: docs/providers/anthropic.md.',
    schema: secret,
  },
  ANTHROPIC_BASE_URL: {
    description: "Anthropic's API origin, without a version path (a fixture or a proxy in its place).",
    ...withDefault(httpUrl('ANTHROPIC_BASE_URL'), ANTHROPIC_DEFAULT_BASE_URL),
  },
  OPENMATES_ANTHROPIC_SEARCH_MODEL: {
    description: "The Claude model that runs Anthropic's hosted `web_search` tool.",
    ...withDefault(
      once(() =>
        z.preprocess(
          blankToUndefined,
          z
            .string()
            .regex(/^[A-Za-z0-9._:-]{1,100}$/, {
              message: 'OPENMATES_ANTHROPIC_SEARCH_MODEL must be a model id such as claude-haiku-4-5',
            })
            .optional(),
        ),
      ),
      ANTHROPIC_DEFAULT_MODEL,
    ),
  },
  OPENMATES_ANTHROPIC_MAX_SEARCHES: {
    description: `Searches Anthropic's hosted \`web_search\` may run for one query (${MIN_ANTHROPIC_MAX_SEARCHES}–${MAX_ANTHROPIC_MAX_SEARCHES}; each is billed), sent as the tool's \`max_uses\`; an answer that ran more is refused whole.`,
    ...withDefault(
      wholeNumber('OPENMATES_ANTHROPIC_MAX_SEARCHES', MIN_ANTHROPIC_MAX_SEARCHES, MAX_ANTHROPIC_MAX_SEARCHES),
      DEFAULT_ANTHROPIC_MAX_SEARCHES,
    ),
  },
} as const satisfies EnvTable;

const needsKey = () =>
  new ProviderNotConfiguredError('OPENMATES_PROVIDER=anthropic needs ANTHROPIC_API_KEY (an Anthropic API key).');

/** Anthropic's hosted search: its variables, identity, construction, doctor checks and live probe. */
export const anthropicModule: ProviderModule<AnthropicSettings, 'anthropic'> = {
  id: 'anthropic',
  name: 'Anthropic hosted search',
  // Each search the web search tool runs ($10 per 1,000, as its tool page states); the model's tokens are billed on top.
  price: {
    costs: 'per-unit',
    usd: 0.01,
    unit: 'search',
    asOf: '2026-12-07',
    page: 'https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool',
  },
  docsPage: 'docs/providers/anthropic.md',
  defaultTimeoutMs: DEFAULT_ANTHROPIC_TIMEOUT_MS,
  accessVariable: 'ANTHROPIC_API_KEY',
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: AnthropicSettings = {
      baseUrl: e.ANTHROPIC_BASE_URL.replace(/\/+$/, ''),
      model: e.OPENMATES_ANTHROPIC_SEARCH_MODEL,
      maxSearches: e.OPENMATES_ANTHROPIC_MAX_SEARCHES,
    };
    if (e.ANTHROPIC_API_KEY) settings.apiKey = e.ANTHROPIC_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.model, String(settings.maxSearches), settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey) throw needsKey();
    return createAnthropicProvider({ ...settings, apiKey: settings.apiKey });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'ANTHROPIC_API_KEY'),
    endpointCheck(env, 'ANTHROPIC_BASE_URL', settings.baseUrl),
    { name: 'OPENMATES_ANTHROPIC_SEARCH_MODEL', ok: true, detail: settings.model },
    { name: 'OPENMATES_ANTHROPIC_MAX_SEARCHES', ok: true, detail: `${settings.maxSearches} searches per query` },
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey) return [];
    return liveProbe({ ...settings, apiKey: settings.apiKey }, signal);
  },
  dryRun: (settings, query) => anthropicDryRun({ query, country: 'US' }, settings),
};
