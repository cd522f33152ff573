export * from './brave/index.ts';
export * from './local/index.ts';
export * from './openai/index.ts';
export * from './registry.ts';
export * from './searxng/index.ts';
export { createHttpGetClient, type HttpGetClientFactory } from './shared/http-get.ts';
export { createUndiciGetClient, loadUndici } from './shared/http-get-undici.ts';
