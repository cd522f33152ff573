export * from './hygiene/index.ts';
export * from './provider.ts';
export * from './providers/index.ts';
