import {
  DEFAULT_OPENAI_MAX_SEARCHES,
  DEFAULT_OPENAI_TIMEOUT_MS,
  MAX_OPENAI_MAX_SEARCHES,
  MIN_OPENAI_MAX_SEARCHES,
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
import { OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL } from './config.ts';
import { liveProbe } from './probe.ts';
import { createOpenAIProvider } from './provider.ts';

/** OpenAI's part of the engine's configuration. */
export interface OpenAISettings {
  /** `OPENAI_API_KEY`, a secret. */
  apiKey?: string;
  /** `OPENAI_BASE_URL` (default OpenAI's API). */
  baseUrl: string;
  /** `OPENMATES_OPENAI_SEARCH_MODEL`. */
  model: string;
  /** `OPENMATES_OPENAI_MAX_SEARCHES` (default 4, from 1 to 20). */
  maxSearches: number;
}

const ENVIRONMENT = {
  OPENAI_API_KEY: {
    description: 'An OpenAI API key (a secret); what is sent where: docs/providers/openai.md.',
    schema: secret,
  },
  OPENAI_BASE_URL: {
    description: "OpenAI's API origin (a fixture or a proxy in its place).",
    ...withDefault(httpUrl('OPENAI_BASE_URL'), OPENAI_DEFAULT_BASE_URL),
  },
  OPENMATES_OPENAI_SEARCH_MODEL: {
    description: "The model that runs OpenAI's hosted `web_search` tool.",
    ...withDefault(
      once(() =>
        z.preprocess(
          blankToUndefined,
          z
            .string()
            .regex(/^[A-Za-z0-9._:-]{1,100}$/, {
              message: 'OPENMATES_OPENAI_SEARCH_MODEL must be a model id such as gpt-5.4',
            })
            .optional(),
        ),
      ),
      OPENAI_DEFAULT_MODEL,
    ),
  },
  OPENMATES_OPENAI_MAX_SEARCHES: {
    description: `Searches OpenAI's hosted \`web_search\` may run for one query (${MIN_OPENAI_MAX_SEARCHES}–${MAX_OPENAI_MAX_SEARCHES}; each is billed); an answer that ran more is refused whole. Reading a found page (\`open_page\`, \`find_in_page\`) is not a search.`,
    ...withDefault(
      wholeNumber('OPENMATES_OPENAI_MAX_SEARCHES', MIN_OPENAI_MAX_SEARCHES, MAX_OPENAI_MAX_SEARCHES),
      DEFAULT_OPENAI_MAX_SEARCHES,
    ),
  },
} as const satisfies EnvTable;

const needsKey = () =>
  new ProviderNotConfiguredError('OPENMATES_PROVIDER=openai needs OPENAI_API_KEY (an OpenAI API key).');

/** OpenAI's hosted search: its variables, identity, construction, doctor checks and live probe. */
export const openaiModule: ProviderModule<OpenAISettings, 'openai'> = {
  id: 'openai',
  name: 'OpenAI hosted search',
  // The web search tool's call ($10 per 1,000); the model's tokens are billed on top of it.
  price: {
    costs: 'per-unit',
    usd: 0.01,
    unit: 'call',
    asOf: '2026-12-07',
    page: 'https://platform.openai.com/docs/pricing',
  },
  docsPage: 'docs/providers/openai.md',
  defaultTimeoutMs: DEFAULT_OPENAI_TIMEOUT_MS,
  accessVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: OpenAISettings = {
      baseUrl: e.OPENAI_BASE_URL,
      model: e.OPENMATES_OPENAI_SEARCH_MODEL,
      maxSearches: e.OPENMATES_OPENAI_MAX_SEARCHES,
    };
    if (e.OPENAI_API_KEY) settings.apiKey = e.OPENAI_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.model, String(settings.maxSearches), settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey) throw needsKey();
    return createOpenAIProvider({ ...settings, apiKey: settings.apiKey });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'OPENAI_API_KEY'),
    endpointCheck(env, 'OPENAI_BASE_URL', settings.baseUrl),
    { name: 'OPENMATES_OPENAI_SEARCH_MODEL', ok: true, detail: settings.model },
    { name: 'OPENMATES_OPENAI_MAX_SEARCHES', ok: true, detail: `${settings.maxSearches} searches per query` },
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey) return [];
    return liveProbe({ ...settings, apiKey: settings.apiKey }, signal);
  },
};
