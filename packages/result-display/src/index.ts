export * from './cards.ts';
export * from './link-and-badge.ts';
export * from './usage-words.ts';
