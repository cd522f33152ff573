export {
  DEMO_META_KEY,
  DEMO_SOURCE,
  type DemoCorpusResult,
  demoCorpusVersion,
  demoDocuments,
  ensureDemoCorpus,
  ensureDemoCorpusIn,
  installedDemoPackages,
} from './demo-corpus.ts';
export { buildMatchExpression, type MatchMode } from './fts-query.ts';
export { defaultIndexPath, type IndexPathEnvironment, resolveIndexPath } from './index-path.ts';
export {
  type IngestOptions,
  type IngestProblem,
  type IngestProgress,
  type IngestResult,
  ingestPaths,
  NO_URL_REASON,
  normalizeBaseUrl,
} from './ingest-paths.ts';
export { type LocalDocument, URL_NOT_HTTP_REASON } from './local-document.ts';
export {
  type AddOptions,
  type AddProgress,
  type AddResult,
  BM25_WEIGHTS,
  type LocalHit,
  type LocalIndex,
  LocalIndexError,
  type LocalIndexStats,
  type LocalSearchOptions,
  openIndex,
} from './local-index.ts';
export { createLocalProvider, type LocalProvider, type LocalProviderConfig } from './local-provider.ts';
export { type LocalSettings, localModule } from './settings.ts';
export { identifierParts, splitIdentifier } from './split-identifiers.ts';
