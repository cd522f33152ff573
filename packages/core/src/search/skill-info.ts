import {
  ASSERTION_IDS,
  CONTRACT_FINGERPRINT,
  DEFAULT_COUNT,
  MAX_BATCH_ITEMS,
  MAX_BODY_BYTES,
  MAX_COUNT,
  MAX_QUERY_LENGTH,
  MAX_RESULTS_PER_GROUP,
  MIN_BATCH_ITEMS,
  MIN_COUNT,
  type ProviderId,
  type SkillInfo,
} from '@openmates/contract';
import { optionLists } from '../capabilities.ts';
import type { AnyEngineConfig } from '../config.ts';
import type { SearchProvider } from '../provider.ts';

/** Skill info for `GET /v1/apps/web/skills/search`: the first provider's capabilities, the chain, the limits. */
export function skillInfo(config: AnyEngineConfig, chain: readonly SearchProvider[], version: string): SkillInfo {
  const provider = chain[0] as SearchProvider;
  // Every provider of PROVIDER_MODULES has one of the contract's ids; only a test's registry adds
  // another (ADR 0114), and its skill info is then outside the contract's list.
  const contractId = (id: string) => id as ProviderId;
  const info: SkillInfo = {
    app: 'web',
    skill: 'search',
    description: 'Search the public web and get sanitized, attributable result groups.',
    version,
    fingerprint: CONTRACT_FINGERPRINT,
    provider: { id: contractId(provider.id), name: provider.name, recipient: provider.recipient },
    providers: chain.map((p) => ({ id: contractId(p.id), name: p.name, recipient: p.recipient })),
    limits: {
      min_batch_items: MIN_BATCH_ITEMS,
      max_batch_items: MAX_BATCH_ITEMS,
      max_query_length: MAX_QUERY_LENGTH,
      min_count: MIN_COUNT,
      max_count: MAX_COUNT,
      default_count: DEFAULT_COUNT,
      max_results_per_group: MAX_RESULTS_PER_GROUP,
      max_body_bytes: MAX_BODY_BYTES,
      max_response_bytes: config.maxResponseBytes,
      max_sources: config.maxSources,
    },
    options: optionLists(provider),
    assertions: [...ASSERTION_IDS],
  };
  const { query, languages } = provider.capabilities;
  if (query !== undefined) info.limits.max_query_words = query.maxWords;
  if (languages) info.languages = [...languages];
  return info;
}
