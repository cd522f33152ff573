import type { AnswerPage, HttpRequest, HttpTranslator, PageRequest, ProviderQuery } from '../provider.ts';
import type { HttpAnswer } from '../providers/shared/http-client.ts';
import { exchangeJson, retryAfterMs, sendRequest } from '../providers/shared/json-answer.ts';
import { exchangeError, statusError } from '../providers/shared/status-errors.ts';
import type { Clock, Member } from './members.ts';
import { type Meter, meterAnswer } from './meter.ts';
import { retryDecision } from './retry.ts';

/** An answer's status and headers, and either its page or, for a refusal, its JSON body when it sent some. */
type Exchanged = Pick<HttpAnswer, 'status' | 'header'> & ({ page: AnswerPage } | { refusal: unknown });

/** One exchange: a 2xx answer read into its page by the translator, a refusal left for the retry rule. */
async function exchangeOnce(
  member: Member,
  request: HttpRequest,
  at: { query: ProviderQuery; page: PageRequest },
  signal: AbortSignal,
): Promise<Exchanged> {
  const { provider } = member;
  const translator = provider.translator as HttpTranslator;
  const wording = { name: provider.name, maxBodyBytes: provider.capabilities.maxBodyBytes };
  if (translator.readStream !== undefined) {
    const answer = await sendRequest(translator.client(), request, signal, wording);
    const { status, header } = answer;
    if (status >= 200 && status <= 299)
      return { status, header, page: await translator.readStream(answer, at.query, signal) };
    // A streaming provider's refusal body is never read: its wording is the status's alone.
    translator.client().discard(answer);
    return { status, header, refusal: undefined };
  }
  const answer = await exchangeJson(translator.client(), request, signal, { ...wording, notJson: translator.notJson });
  const { status, header } = answer;
  if (status < 200 || status > 299) return { status, header, refusal: answer.body };
  const page = translator.parseAnswer(answer.body, at.query, at.page);
  if (page === undefined) throw exchangeError(provider.name, 'shape', { status });
  return { status, header, page };
}

/**
 * One page of an HTTP provider: the translator's request, sent through the one HTTP client and read
 * by the translator (a JSON answer through the one bounded reader), retried by the one retry rule
 * (a 429 also pauses every replica through the member's gate), a refusal worded by the one status
 * table. `signal` is the page's own (its timeout and the caller); `endsAt` is when its time is up,
 * on `clock.now`. `meter` counts each exchange sent (retries included) and each page read.
 */
export async function exchangePage(
  member: Member,
  query: ProviderQuery,
  page: PageRequest,
  signal: AbortSignal,
  options: { clock: Clock; endsAt: number; failover: boolean; meter?: Meter | undefined },
): Promise<AnswerPage> {
  const { provider, gate } = member;
  const translator = provider.translator as HttpTranslator;
  const request = translator.buildRequest(query, page);
  const { clock } = options;
  for (let attempt = 0; ; attempt += 1) {
    if (options.meter) options.meter.calls += 1;
    const answer = await exchangeOnce(member, request, { query, page }, signal);
    if ('page' in answer) {
      if (options.meter) meterAnswer(options.meter, answer.page.usage);
      return answer.page;
    }
    const hints = translator.rateLimit?.(answer) ?? { waitMs: retryAfterMs(answer, clock.wallClock()) };
    const state = { attempt, remainingMs: options.endsAt - clock.now(), failover: options.failover };
    const decision = retryDecision(answer.status, hints.waitMs, provider.capabilities.retry, state);
    if (answer.status === 429) await gate?.pause(decision.pauseMs);
    if (!decision.retry)
      throw statusError(provider.name, answer.status, {
        retryAfterMs: decision.retryAfterMs,
        own: translator.refusals,
        body: answer.refusal,
      });
    await clock.sleep(decision.waitMs, signal);
    await gate?.acquire(options.endsAt - clock.now(), signal);
  }
}
