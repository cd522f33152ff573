// Helpers for tests of this package and of the packages built on it (`@openmates/core/testing`).
// Product code never imports this folder; test-helpers-stay-out.test.ts in assertions/ checks it.
export { fitResponse } from './fit.ts';
export { testContext, testQuery } from './provider-query.ts';
