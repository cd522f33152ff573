import { DEFAULT_OPENAI_MAX_SEARCHES, MAX_OPENAI_MAX_SEARCHES, MIN_OPENAI_MAX_SEARCHES } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';

/** Where the OpenAI provider sends queries when no base URL is configured. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The hosted-search model when none is configured (`OPENMATES_OPENAI_SEARCH_MODEL`). */
export const OPENAI_DEFAULT_MODEL = 'gpt-5.4';

export interface OpenAIProviderConfig {
  /** The OpenAI API key, sent as `Authorization: Bearer`. Required. */
  apiKey: string;
  /** The Responses API base URL. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** The hosted-search model. Default `gpt-5.4`. */
  model?: string;
  /**
   * Searches (`web_search_call`s whose action is `search`) allowed per query, 1–20; more fail the
   * query, page reads do not count (ADR 0099). Default 4 (`OPENMATES_OPENAI_MAX_SEARCHES`).
   */
  maxSearches?: number;
}

/** A configuration with every default applied and checked. */
export interface ResolvedOpenAIConfig {
  apiKey: string;
  /** Without a trailing slash. */
  baseUrl: string;
  model: string;
  maxSearches: number;
  /** The base URL's host: who receives the queries. */
  recipient: string;
}

/**
 * Applies defaults and checks the configuration. `requireKey: false` is for dry runs, which never
 * send anything. Throws ProviderNotConfiguredError naming what is wrong (never the key itself).
 */
export function resolveOpenAIConfig(
  config: Partial<OpenAIProviderConfig>,
  { requireKey = true }: { requireKey?: boolean } = {},
): ResolvedOpenAIConfig {
  const apiKey = config.apiKey?.trim() ?? '';
  if (requireKey && apiKey === '') throw new ProviderNotConfiguredError('OpenAI: no API key is configured.');
  const rawBase = config.baseUrl?.trim() || OPENAI_DEFAULT_BASE_URL;
  let base: URL;
  try {
    base = new URL(rawBase);
  } catch {
    throw new ProviderNotConfiguredError('OpenAI: the base URL is not a valid URL.');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new ProviderNotConfiguredError('OpenAI: the base URL must be http or https.');
  if (base.username !== '' || base.password !== '')
    throw new ProviderNotConfiguredError('OpenAI: the base URL must not carry credentials.');
  const model = config.model?.trim() || OPENAI_DEFAULT_MODEL;
  const maxSearches = config.maxSearches ?? DEFAULT_OPENAI_MAX_SEARCHES;
  if (
    !Number.isSafeInteger(maxSearches) ||
    maxSearches < MIN_OPENAI_MAX_SEARCHES ||
    maxSearches > MAX_OPENAI_MAX_SEARCHES
  )
    throw new ProviderNotConfiguredError(
      `OpenAI: maxSearches must be a whole number from ${MIN_OPENAI_MAX_SEARCHES} to ${MAX_OPENAI_MAX_SEARCHES}.`,
    );
  return {
    apiKey,
    baseUrl: base.toString().replace(/\/+$/, ''),
    model,
    maxSearches,
    recipient: base.host,
  };
}
