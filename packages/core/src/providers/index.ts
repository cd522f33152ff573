export * from './brave-languages.ts';
export * from './brave-provider.ts';
