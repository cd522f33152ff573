export * from './cards.ts';
export * from './link-and-badge.ts';
