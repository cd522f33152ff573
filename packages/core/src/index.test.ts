import { expect, it } from 'vitest';

// Other packages import exactly these values from @openmates/core (types are checked by tsc).
// Adding one here is a change of the package's public API: name it in index.ts on purpose.
it('exports exactly the values other packages use', async () => {
  expect(Object.keys(await import('./index.ts')).sort()).toEqual([
    'ConfigError',
    'ENGINE_ENVIRONMENT',
    'EngineError',
    'LocalIndexError',
    'PROVIDER_MODULES',
    'ProviderNotConfiguredError',
    'SELECTION_ENVIRONMENT',
    'anthropicDryRun',
    'buildListedProviders',
    'configSecrets',
    'connectRedis',
    'createConfiguredProvider',
    'createConfiguredProviders',
    'createEngine',
    'createLocalProvider',
    'createLogger',
    'createRedactor',
    'defaultIndexPath',
    'describeIssues',
    'dryRunRequest',
    'ensureDemoCorpusIn',
    'errorResponse',
    'ingestPaths',
    'lazyHttpClient',
    'loadConfig',
    'loadHttpClient',
    'newRequestId',
    'normalizeBaseUrl',
    'openIndex',
    'parseJsonBody',
    'tableSchema',
    'tavilyDryRun',
  ]);
});
