export * from './case.ts';
export { CASES } from './cases/index.ts';
export * from './catalogue.ts';
export * from './document.ts';
export * from './outcome.ts';
export * from './report.ts';
export * from './runner.ts';
