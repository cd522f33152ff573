// How the replay tests run a recorded provider answer through the whole engine on loopback: the
// recording served at the provider's route, the engine configured for that provider, and the
// admission counts of its `provider_call` log lines (`BuildStats`) read back.

import type { ResultGroup, WebSearchResponse, WebSearchResult } from '@openmates/contract';
import { lineCollector, type Recording, type RecordingServerRequest, startRecordingServer } from '@openmates/fixtures';
import { decodeHTML } from 'entities';
import type { BuildStats } from '../build-results.ts';
import { loadConfig } from '../config.ts';
import { createEngine } from '../engine.ts';
import { createLogger } from '../logger.ts';
import { createConfiguredProvider, PROVIDER_MODULES, type ProviderRegistry } from '../providers/registry.ts';

/**
 * The environment that points a recorded provider at its base URL on the recording server, with a
 * test key: each module says which variables do (`accessVariable`, `baseUrlVariable`).
 */
function settingsOf(provider: Recording['provider'], baseUrl: string): Record<string, string> {
  const registry: ProviderRegistry = PROVIDER_MODULES;
  const module = Object.hasOwn(registry, provider) ? registry[provider] : undefined;
  // Recordings of a provider not built yet (its answers kept for when it is) cannot be replayed.
  if (module === undefined) throw new Error(`No provider module replays ${provider}'s recordings yet`);
  const env: Record<string, string> = { OPENMATES_PROVIDER: provider };
  if (module.accessVariable) env[module.accessVariable] = 'recorded-answers-test-key';
  if (module.baseUrlVariable) env[module.baseUrlVariable] = baseUrl;
  return env;
}

/** What one engine search on a recording gave: the response, the engine's log lines, the calls the server received. */
export interface RecordedSearch {
  response: WebSearchResponse;
  lines: string[];
  requests: RecordingServerRequest[];
}

/**
 * Searches `request` with the engine configured for `recording`'s provider against the recording
 * served as page 1 on loopback, cache off, `env` added to the settings.
 */
export async function searchRecording(
  recording: Recording,
  request: unknown,
  env: Record<string, string> = {},
): Promise<RecordedSearch> {
  const server = await startRecordingServer([recording]);
  try {
    const config = loadConfig({
      ...settingsOf(recording.provider, server.providerBaseUrls[recording.provider]),
      OPENMATES_CACHE_TTL_S: '0',
      ...env,
    });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', redact: (text) => text, destination: lineCollector(lines) });
    const engine = createEngine({ config, provider: createConfiguredProvider(config), logger });
    const { response } = await engine.search(request);
    return { response, lines, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The refusal counters of `BuildStats`: why admission dropped a candidate. */
export const REFUSALS = ['badUrl', 'tabloid', 'duplicate', 'removed_out_of_scope', 'removed_out_of_range'] as const;

/** What one engine search on a recording gave: its first group, the admission counts, the calls made. */
export interface Replay {
  group: ResultGroup;
  /** The `BuildStats` of the group's `provider_call` log line. */
  stats: BuildStats;
  requests: RecordingServerRequest[];
}

/** Runs `item` (its query defaulting to the recording's) through the engine against `recording` served as page 1. */
export async function replay(recording: Recording, item: Record<string, unknown>): Promise<Replay> {
  const { response, lines, requests } = await searchRecording(recording, {
    requests: [{ query: recording.query ?? 'recorded', ...item }],
  });
  const [group] = response.results;
  if (group === undefined) throw new Error('no group');
  const calls = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === 'provider_call' && typeof line.candidates === 'number');
  if (calls.length !== 1) throw new Error(`expected one answered provider call, logged ${calls.length}`);
  return { group, stats: calls[0] as unknown as BuildStats, requests };
}

/** How many candidates admission refused, all reasons together. */
export function refusedCount(stats: BuildStats): number {
  return REFUSALS.reduce((sum, reason) => sum + stats[reason], 0);
}

/** True for a URL string the engine could admit: http or https. */
export function isHttpUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const MARKUP = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/i;
const EVERY_TAG = new RegExp(MARKUP.source, 'gi');
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i;

/** The texts of a result a reader sees that must be plain: title, description, note, breadcrumb, extra snippets. */
export function shownTexts(result: WebSearchResult): string[] {
  return [
    result.title,
    result.description,
    result.note,
    result.meta_url?.path,
    ...(result.extra_snippets ?? []),
  ].filter((text): text is string => typeof text === 'string');
}

/** The first text of `result` that carries markup or an undecoded entity, or undefined. */
export function uncleanText(result: WebSearchResult): string | undefined {
  return shownTexts(result).find((text) => MARKUP.test(text) || ENTITY.test(text));
}

/**
 * Provider text read the simple way, independently of the engine's cleaning: tags removed, entities
 * decoded (the `entities` package), NFC, and no whitespace at all, so that two readings of one text
 * compare equal however each spaced its words around markup.
 */
export function squeezed(text: unknown): string {
  if (typeof text !== 'string') return '';
  return decodeHTML(text.replace(EVERY_TAG, '')).normalize('NFC').replace(/\s+/g, '');
}

/** A URL as identity for matching a result to the recorded one it came from: host and path, no query. */
export function urlKey(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}
