import type { ParityCase } from '../case.ts';
import { anthropicCases } from './anthropic.ts';
import { azureOpenAICases } from './azure-openai.ts';
import { braveResultCases } from './brave-results.ts';
import { budgetCases } from './budgets.ts';
import { exaCases } from './exa.ts';
import { excerptCases } from './excerpts.ts';
import { failoverCases } from './failover.ts';
import { idsCorrelatedCases } from './ids-correlated.ts';
import { localCases } from './local.ts';
import { openaiCases } from './openai.ts';
import { pageCases } from './pages.ts';
import { progressCases } from './progress.ts';
import { retryCases } from './retries.ts';
import { retryRuleCases } from './retry-rule.ts';
import { scopeCases } from './scope.ts';
import { searxngCases } from './searxng.ts';
import { serperCases } from './serper.ts';
import { tavilyCases } from './tavily.ts';
import { usageCases } from './usage.ts';
import { validatedCases } from './validated.ts';

/** Every case of the parity suite. */
export const CASES: readonly ParityCase[] = [
  ...validatedCases,
  ...idsCorrelatedCases,
  ...braveResultCases,
  ...budgetCases,
  ...localCases,
  ...openaiCases,
  ...anthropicCases,
  ...azureOpenAICases,
  ...searxngCases,
  ...tavilyCases,
  ...serperCases,
  ...retryCases,
  ...retryRuleCases,
  ...scopeCases,
  ...failoverCases,
  ...progressCases,
  ...excerptCases,
  ...pageCases,
  ...exaCases,
  ...usageCases,
];
