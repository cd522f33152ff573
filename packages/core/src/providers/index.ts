export * from './brave-languages.ts';
export * from './brave-provider.ts';
export * from './local/index.ts';
export * from './openai-config.ts';
export * from './openai-probe.ts';
export * from './openai-provider.ts';
export * from './openai-request.ts';
export * from './registry.ts';
