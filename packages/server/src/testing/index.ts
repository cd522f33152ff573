// Helpers for tests of this package and of the packages built on it (`@openmates/server/testing`).
// Product code never imports this folder; test-helpers-stay-out.test.ts in assertions/ checks it.

export * from './request-arbitraries.ts';
export { failingProvider, startTestEngine, startTestServer, type TestServer } from './test-server.ts';
