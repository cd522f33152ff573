import { DEFAULT_OPENAI_TIMEOUT_MS } from '@openmates/contract';
import { z } from 'zod';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { blankToUndefined, type EnvTable, httpUrl, parseEnv, secret, withDefault } from '../../shared/env-schema.ts';
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
      z.lazy(() =>
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
} as const satisfies EnvTable;

const needsKey = () =>
  new ProviderNotConfiguredError('OPENMATES_PROVIDER=openai needs OPENAI_API_KEY (an OpenAI API key).');

/** OpenAI's hosted search: its variables, identity, construction, doctor checks and live probe. */
export const openaiModule: ProviderModule<OpenAISettings> = {
  id: 'openai',
  defaultTimeoutMs: DEFAULT_OPENAI_TIMEOUT_MS,
  accessVariable: 'OPENAI_API_KEY',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: OpenAISettings = {
      baseUrl: e.OPENAI_BASE_URL,
      model: e.OPENMATES_OPENAI_SEARCH_MODEL,
    };
    if (e.OPENAI_API_KEY) settings.apiKey = e.OPENAI_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.model, settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey) throw needsKey();
    return createOpenAIProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, model: settings.model });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'OPENAI_API_KEY'),
    endpointCheck(env, 'OPENAI_BASE_URL', settings.baseUrl),
    { name: 'OPENMATES_OPENAI_SEARCH_MODEL', ok: true, detail: settings.model },
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey) return [];
    return liveProbe({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, model: settings.model }, signal);
  },
};
