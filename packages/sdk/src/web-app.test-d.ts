import { describe, expectTypeOf, it } from 'vitest';
import {
  type APIError,
  type ErrorCode,
  type Issue,
  OpenMates,
  type ProviderError,
  type ResultGroup,
  type SearchParams,
  type SearchResult,
  type WebSearchRequest,
  type WebSearchResponse,
  type WebSearchResult,
} from './index.ts';

const client = new OpenMates();

describe('client.apps.web.search types', () => {
  it('takes the WebSearchRequest the OpenAPI document declares and resolves to a WebSearchResponse', () => {
    expectTypeOf<SearchParams>().toEqualTypeOf<WebSearchRequest>();
    expectTypeOf<SearchResult>().toEqualTypeOf<WebSearchResponse>();
    expectTypeOf(client.apps.web.search).parameter(0).toEqualTypeOf<WebSearchRequest>();
    expectTypeOf(client.apps.web.search).returns.resolves.toEqualTypeOf<WebSearchResponse>();
  });

  it('rejects a misspelled or unknown field', () => {
    // @ts-expect-error `max_results` is not a field: the count field is `count`.
    void client.apps.web.search({ requests: [{ query: 'q', max_results: 5 }] });
    // @ts-expect-error `querry` is misspelled, and `query` is required.
    void client.apps.web.search({ requests: [{ querry: 'q' }] });
    // @ts-expect-error the batch lives under `requests`.
    void client.apps.web.search({ request: [{ query: 'q' }] });
    // @ts-expect-error `count` is a number.
    void client.apps.web.search({ requests: [{ query: 'q', count: '5' }] });
    void client.apps.web.search({
      requests: [
        { id: 1, query: 'q', count: 5, country: 'DE', search_lang: 'de', safesearch: 'strict', filter_tabloids: false },
      ],
    });
  });

  it('types results to the contract', async () => {
    const response = await client.apps.web.search({ requests: [{ query: 'q' }] });
    expectTypeOf(response.results).toEqualTypeOf<ResultGroup[]>();
    expectTypeOf(response.provider).toEqualTypeOf<string>();
    expectTypeOf(response.suggestions_follow_up_requests).toEqualTypeOf<string[] | undefined>();
    const group = response.results[0];
    expectTypeOf(group).toEqualTypeOf<ResultGroup | undefined>();
    expectTypeOf<ResultGroup['id']>().toEqualTypeOf<string | number>();
    expectTypeOf<ResultGroup['results']>().toEqualTypeOf<WebSearchResult[]>();
    expectTypeOf<WebSearchResult['url']>().toEqualTypeOf<string>();
    expectTypeOf<WebSearchResult['family_friendly']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<NonNullable<ResultGroup['error']>['code']>().toEqualTypeOf<
      | 'provider_error'
      | 'provider_timeout'
      | 'provider_rate_limited'
      | 'provider_auth'
      | 'provider_unavailable'
      | 'quota_exceeded'
    >();
    // @ts-expect-error a result has no `snippet`: the field is `description`.
    void response.results[0]?.results[0]?.snippet;
  });

  it('types errors to the contract', () => {
    expectTypeOf<APIError['code']>().toEqualTypeOf<ErrorCode | undefined>();
    expectTypeOf<APIError['issues']>().toEqualTypeOf<readonly Issue[]>();
    expectTypeOf<ProviderError['response']>().toEqualTypeOf<WebSearchResponse>();
    expectTypeOf<ErrorCode>().toExtend<string>();
    expectTypeOf<'invalid_request'>().toExtend<ErrorCode>();
    expectTypeOf<'no_such_code'>().not.toExtend<ErrorCode>();
  });
});
