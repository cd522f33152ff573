// What an in-process search takes from the engine, named here rather than through a dynamic
// `import('@openmates/core')`: the bundler keeps every export a dynamic import could reach, so the
// search chunk would also carry the shared Redis link (with node:crypto, ~15 ms to load) and the
// doctor's probes. `openmates serve` and `doctor` import the engine themselves.
export {
  ConfigError,
  createConfiguredProvider,
  createEngine,
  EngineError,
  errorResponse,
  loadConfig,
  ProviderNotConfiguredError,
} from '@openmates/core';
