import { REQUEST_OPTIONS } from './fields.ts';
import { PROVIDER_IDS } from './providers.ts';
import { RateLimitStateSchema } from './rate-limit.ts';
import { z } from './zod.ts';

const ProviderInfoSchema = z.strictObject({
  id: z.enum(PROVIDER_IDS),
  name: z.string().openapi({ description: 'Who answers, as `provider` in a response names it.' }),
  recipient: z.string().openapi({ description: 'Where queries are sent (a host, or "this machine").' }),
});

const providerList = z.array(z.enum(PROVIDER_IDS)).min(1).openapi({
  description: 'Every provider listed (OPENMATES_PROVIDER), in order; `provider` is the first.',
});

export const SkillInfoSchema = z
  .strictObject({
    app: z.literal('web'),
    skill: z.literal('search'),
    description: z.string(),
    version: z.string().openapi({ description: 'The server version.' }),
    fingerprint: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: 'SHA-256 of the canonical JSON of the OpenAPI document and the assertion catalogue.' }),
    provider: ProviderInfoSchema.openapi({
      description: 'The first provider listed: every group goes to it first, and requests are validated against it.',
    }),
    providers: z.array(ProviderInfoSchema).min(1).openapi({
      description:
        "Every provider listed (OPENMATES_PROVIDER), in order: a group goes to the next one when a call fails as the provider's fault, so a query may reach each of them.",
    }),
    limits: z.strictObject({
      min_batch_items: z.int(),
      max_batch_items: z.int(),
      max_query_length: z.int(),
      max_query_words: z.int().optional().openapi({ description: 'Set when the provider limits words per query.' }),
      min_count: z.int(),
      max_count: z.int(),
      default_count: z.int(),
      max_results_per_group: z.int(),
      max_body_bytes: z.int(),
      max_response_bytes: z.int(),
      max_sources: z.int(),
    }),
    options: z.strictObject({
      honoured: z.array(z.enum(REQUEST_OPTIONS)),
      unsupported: z
        .array(z.strictObject({ option: z.enum(REQUEST_OPTIONS), rule: z.string() }))
        .openapi({ description: 'Option values this provider refuses with a 400, and why.' }),
      conditional: z
        .array(z.strictObject({ option: z.enum(REQUEST_OPTIONS), rule: z.string() }))
        .optional()
        .openapi({
          description: 'Options this provider honours only in some cases (not listed in `honoured`), and when.',
        }),
    }),
    languages: z.array(z.string()).optional().openapi({
      description: 'The `search_lang` codes the provider supports, when it does not support every ISO 639-1 code.',
    }),
    assertions: z.array(z.string()).openapi({ description: 'The assertion ids this server is tested against.' }),
    rate_limit: RateLimitStateSchema.optional().openapi({
      description:
        "The caller's current state under the per-key limit, read without counting this request; absent when the limit is off.",
    }),
  })
  .openapi('SkillInfo', { description: 'What this server offers: limits, provider, options and fingerprint.' });
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

export const HealthSchema = z
  .strictObject({
    status: z.literal('ok'),
    provider: z.enum(PROVIDER_IDS),
    providers: providerList,
    redis: z.enum(['ok', 'down']).optional().openapi({
      description:
        'Present when replicas share state through Redis (OPENMATES_REDIS_URL): `down` while this replica runs on in-process stand-ins.',
    }),
  })
  .openapi('Health');
export type Health = z.infer<typeof HealthSchema>;

export const ReadinessSchema = z
  .strictObject({ status: z.literal('ready'), provider: z.enum(PROVIDER_IDS), providers: providerList })
  .openapi('Readiness', {
    description: 'The server takes searches: its provider is configured and its local index (if any) is built.',
  });
export type Readiness = z.infer<typeof ReadinessSchema>;
