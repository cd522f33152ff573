// Exa: the provider and its configuration.
export {
  createExaProvider,
  EXA_CAPABILITIES,
  EXA_DEFAULT_BASE_URL,
  EXA_TEXT_FORMAT,
  type ExaProviderConfig,
  exaRequest,
} from './provider.ts';
export { type ExaSettings, exaModule } from './settings.ts';
