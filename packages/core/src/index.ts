export * from './provider.ts';
