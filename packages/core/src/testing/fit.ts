// Fitting as the tests call it: the fitted response alone (the engine takes its JSON too).
import type { WebSearchResponse } from '@openmates/contract';
import { fitResponseJson } from '../fit-response.ts';

/** `fitResponseJson`'s fitted response, without the JSON it measured. */
export function fitResponse(response: WebSearchResponse, maxBytes: number): WebSearchResponse {
  return fitResponseJson(response, maxBytes).response;
}
