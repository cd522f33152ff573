export * from './html-to-text.ts';
export * from './meta-url.ts';
export * from './redact.ts';
export * from './sanitize-text.ts';
export * from './tabloid.ts';
export * from './tabloid-domains.ts';
export * from './truncate.ts';
export * from './url-admission.ts';
