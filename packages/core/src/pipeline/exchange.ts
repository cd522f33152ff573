import type { AnswerPage, HttpTranslator, PageRequest, ProviderQuery } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { getJson, type JsonAnswer, retryAfterMs, statusError } from '../providers/shared/json-answer.ts';
import type { Clock, Member } from './members.ts';
import { retryDecision } from './retry.ts';

/** The provider's wording of a refusal, else the generic one; a rate limit carries the wait it asked for. */
function refusalOf(member: Member, answer: JsonAnswer, waitMs: number | undefined): ProviderError {
  const { provider } = member;
  const translator = provider.translator as HttpTranslator;
  const own = translator.refusal?.(answer.status, answer.body);
  if (own === undefined) return statusError(provider.name, answer.status, waitMs);
  if (own.code !== 'provider_rate_limited' || own.retryAfterMs !== undefined || waitMs === undefined) return own;
  return new ProviderError(own.code, own.message, { status: answer.status, retryAfterMs: waitMs, cause: own.cause });
}

/**
 * One page of an HTTP provider: the translator's request, sent and read through the one bounded
 * JSON reader, retried by the one retry rule (a 429 also pauses every replica through the member's
 * gate), and the answer parsed by the translator. `signal` is the page's own (its timeout and the
 * caller); `endsAt` is when its time is up, on `clock.now`.
 */
export async function exchangePage(
  member: Member,
  query: ProviderQuery,
  page: PageRequest,
  signal: AbortSignal,
  options: { clock: Clock; endsAt: number; failover: boolean },
): Promise<AnswerPage> {
  const { provider, gate } = member;
  const translator = provider.translator as HttpTranslator;
  const wording = {
    name: provider.name,
    ...(translator.notJson === undefined ? {} : { notJson: translator.notJson }),
    ...(provider.capabilities.maxBodyBytes === undefined ? {} : { maxBodyBytes: provider.capabilities.maxBodyBytes }),
  };
  const request = translator.buildRequest(query, page);
  const { clock } = options;
  for (let attempt = 0; ; attempt += 1) {
    const answer = await getJson(translator.client(), request, signal, wording);
    if (answer.status >= 200 && answer.status <= 299) {
      const parsed = translator.parseAnswer(answer.body, query, page);
      if (parsed !== undefined) return parsed;
      throw new ProviderError('provider_error', `${provider.name} sent an answer of an unexpected shape.`, {
        status: answer.status,
      });
    }
    const hints = translator.rateLimit?.(answer) ?? { waitMs: retryAfterMs(answer, clock.wallClock()) };
    const state = { attempt, remainingMs: options.endsAt - clock.now(), failover: options.failover };
    const decision = retryDecision(answer.status, hints.waitMs, provider.capabilities.retry, state);
    if (answer.status === 429) await gate?.pause(decision.pauseMs);
    if (!decision.retry) throw refusalOf(member, answer, decision.retryAfterMs);
    await clock.sleep(decision.waitMs, signal);
    await gate?.acquire(options.endsAt - clock.now(), signal);
  }
}
