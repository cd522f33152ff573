export * from './provider.ts';
export * from './providers/openai-config.ts';
export * from './providers/openai-probe.ts';
export * from './providers/openai-provider.ts';
export * from './providers/openai-request.ts';
