export * from './provider.ts';
export * from './providers/index.ts';
