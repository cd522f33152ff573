export * from './hygiene/index.ts';
export * from './provider.ts';
