import { DEFAULT_SEARXNG_TIMEOUT_MS } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { type EnvTable, hostOf, httpUrl, parseEnv } from '../../shared/env-schema.ts';
import { COSTS_NOTHING, type ProviderModule } from '../provider-module.ts';
import { basicAuthorization, createSearxngProvider } from './provider.ts';

/**
 * SearXNG's part of the engine's configuration: `SEARXNG_BASE_URL` split into the instance's URL
 * (sub-path kept, no credentials) and its basic-auth credentials, which are secrets.
 */
export interface SearxngSettings {
  baseUrl?: string;
  username?: string;
  password?: string;
}

const ENVIRONMENT = {
  SEARXNG_BASE_URL: {
    description:
      'Your SearXNG instance, sub-path included, with its JSON output on (docs/providers/searxng.md); `https://user:password@host/path` for basic auth (the credentials are secrets).',
    schema: httpUrl('SEARXNG_BASE_URL'),
  },
} as const satisfies EnvTable;

/** An instance URL without its `user:password@` part, and the credentials it carried (decoded). */
function splitCredentials(raw: string): SearxngSettings {
  const url = new URL(raw);
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const out: SearxngSettings = {};
  if (url.username !== '') out.username = decode(url.username);
  if (url.password !== '') out.password = decode(url.password);
  url.username = '';
  url.password = '';
  out.baseUrl = url.href.replace(/\/+$/, '');
  return out;
}

/** A SearXNG instance of your own: its variable, identity, construction and doctor check. */
export const searxngModule: ProviderModule<SearxngSettings, 'searxng'> = {
  id: 'searxng',
  name: 'SearXNG',
  price: COSTS_NOTHING,
  docsPage: 'docs/providers/searxng.md',
  defaultTimeoutMs: DEFAULT_SEARXNG_TIMEOUT_MS,
  accessVariable: 'SEARXNG_BASE_URL',
  baseUrlVariable: 'SEARXNG_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const { SEARXNG_BASE_URL } = parseEnv(ENVIRONMENT, env);
    return SEARXNG_BASE_URL === undefined ? {} : splitCredentials(SEARXNG_BASE_URL);
  },
  secrets({ username, password }) {
    // A password is a secret as typed, as `user:password` and inside the Authorization header.
    if (password === undefined) return [];
    return [
      password,
      `${username ?? ''}:${password}`,
      basicAuthorization(username ?? '', password).slice('Basic '.length),
    ];
  },
  // Each instance has its own engines and settings, and an account behind a proxy may have its
  // own preferences: two instances (or users) answer one query differently, so neither may be
  // served the other's cached answers or share its rate.
  identity: (settings) => [settings.baseUrl ?? '', settings.username ?? ''],
  create({ baseUrl, username, password }) {
    if (!baseUrl)
      throw new ProviderNotConfiguredError(
        'OPENMATES_PROVIDER=searxng needs SEARXNG_BASE_URL (your instance, e.g. http://127.0.0.1:8888).',
      );
    return createSearxngProvider({
      baseUrl,
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
    });
  },
  configurationChecks: ({ baseUrl, password }) => [
    {
      name: 'SEARXNG_BASE_URL',
      ok: baseUrl !== undefined,
      detail:
        baseUrl === undefined
          ? 'not set'
          : `queries go to ${hostOf(baseUrl)}${password === undefined ? '' : ' (with basic-auth credentials, not shown)'}`,
      ...(baseUrl === undefined
        ? {
            fix: 'Set SEARXNG_BASE_URL to your instance (e.g. http://127.0.0.1:8888 or https://user:password@host/searxng).',
          }
        : {}),
    },
  ],
};
