import { type DoctorCheck, ProviderError } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { HttpClient } from '../shared/http-client.ts';
import { exchangeJson } from '../shared/json-answer.ts';
import { fixFor, ownStatusError } from './refusals.ts';

/** Where the instance is, as the doctor checks it. */
interface Instance {
  /** Its URL without credentials or a trailing slash. */
  readonly root: string;
  readonly recipient: string;
  readonly headers: Readonly<Record<string, string>>;
}

const REACH = 'SearXNG instance';
const wording = { name: 'SearXNG' };
const failed = (name: string, detail: string, fix: string): DoctorCheck => ({ name, ok: false, detail, fix });

/** `/config` as JSON, or the check that says why it could not be read. */
async function readConfig(client: HttpClient, instance: Instance, signal: AbortSignal) {
  const { recipient } = instance;
  try {
    const request = { method: 'GET', url: new URL(`${instance.root}/config`), headers: instance.headers } as const;
    const answer = await exchangeJson(client, request, signal, wording);
    if (answer.status !== 200) {
      const error = ownStatusError(answer.status);
      return { check: failed(REACH, `${recipient}/config: ${error.message}`, fixFor(error)) };
    }
    return { config: answer.body };
  } catch (error) {
    if (error instanceof ProviderError && error.code !== 'provider_error')
      return { check: failed(REACH, error.message, fixFor(error)) };
    if (error instanceof ProviderError) return { config: undefined };
    return {
      check: failed(
        REACH,
        `${recipient} did not answer in time`,
        'Check that the instance is running and SEARXNG_BASE_URL points at it.',
      ),
    };
  }
}

/** Whether the instance has web engines on. */
function enginesCheck(config: Record<string, unknown>): DoctorCheck {
  const engines = Array.isArray(config.engines) ? config.engines.filter(isRecord) : [];
  const enabled = engines.filter((e) => e.enabled === true);
  const general = enabled.filter((e) => Array.isArray(e.categories) && e.categories.includes('general'));
  if (general.length > 0)
    return {
      name: 'SearXNG engines',
      ok: true,
      detail: `${general.length} enabled engine${general.length === 1 ? '' : 's'} in the general category (${enabled.length} enabled in all)`,
    };
  return failed(
    'SearXNG engines',
    `no enabled engine in the general category (${enabled.length} enabled in all)`,
    'Enable web engines (e.g. duckduckgo, brave, wikipedia) under `engines:` in the instance’s settings.yml.',
  );
}

/**
 * `/search?format=json` without a query is refused with 403 when `json` is not in `search.formats`
 * (searx/webapp.py checks the format before the query) and answers 400 `{"error": "No query"}` when
 * it is, so no engine is ever asked.
 */
async function jsonOutputCheck(client: HttpClient, instance: Instance, signal: AbortSignal): Promise<DoctorCheck> {
  const name = 'SearXNG JSON output';
  try {
    const probe = new URL(`${instance.root}/search?format=json`);
    const answer = await exchangeJson(
      client,
      { method: 'GET', url: probe, headers: instance.headers },
      signal,
      wording,
    );
    const { status } = answer;
    if (status === 400 && /\bjson\b/i.test(answer.header('content-type') ?? ''))
      return { name, ok: true, detail: 'enabled (json is in search.formats)' };
    const error = status === 200 ? undefined : ownStatusError(status);
    return failed(
      name,
      error?.message ?? `unexpected answer to a JSON request (HTTP ${status})`,
      error ? fixFor(error) : 'Point SEARXNG_BASE_URL at the instance itself, with its sub-path.',
    );
  } catch (error) {
    const message = error instanceof ProviderError ? error.message : `${instance.recipient} did not answer in time`;
    return failed(name, message, 'Check the instance is running.');
  }
}

/**
 * `openmates doctor`'s checks of the instance, without running a search: `/config` answers
 * (reachable, credentials accepted) and lists enabled engines, JSON output is on, and whether its
 * limiter may refuse this server.
 */
export async function doctorChecks(
  client: HttpClient,
  instance: Instance,
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const read = await readConfig(client, instance, signal);
  if (read.check) return [read.check];
  const { config } = read;
  if (!isRecord(config))
    return [
      failed(
        REACH,
        `${instance.recipient}/config is not SearXNG's configuration`,
        'Point SEARXNG_BASE_URL at the instance itself, with its sub-path (the URL its search page is under).',
      ),
    ];
  const version = typeof config.version === 'string' && /^[\w.+-]{1,40}$/.test(config.version) ? config.version : '';
  const checks: DoctorCheck[] = [
    { name: REACH, ok: true, detail: `${instance.recipient} answers${version ? ` (SearXNG ${version})` : ''}` },
    enginesCheck(config),
    await jsonOutputCheck(client, instance, signal),
  ];
  if (isRecord(config.limiter) && config.limiter.enabled === true)
    checks.push({
      name: 'SearXNG limiter',
      ok: true,
      detail:
        'on: it may refuse this server with 429; if searches fail that way, add this server’s address to botdetection.ip_lists.pass_ip or set server.limiter: false',
    });
  return checks;
}
