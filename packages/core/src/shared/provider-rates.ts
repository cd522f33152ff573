import { once } from '@openmates/contract';
import { z } from 'zod';
import { blankToUndefined } from './env-schema.ts';

const RATE_MESSAGE =
  'OPENMATES_PROVIDER_RATE_PER_S must be a number > 0 (calls per second of the first provider) or a list such as brave=1,searxng=5';

/**
 * `1.5` (the first provider's rate) or `brave=1,searxng=5`, each rate a number > 0. Whether each
 * name is a provider of the chain is `loadConfig`'s to say, against its registry.
 */
export const providerRates = once(() =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((text, ctx): Record<string, number> | number | undefined => {
        const rate = (s: string) => {
          const n = /^\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
          return n > 0 && Number.isFinite(n) ? n : undefined;
        };
        const trimmed = text.trim();
        if (!trimmed.includes('=')) {
          const n = rate(trimmed);
          if (n === undefined) ctx.addIssue({ code: 'custom', message: RATE_MESSAGE });
          return n;
        }
        const rates: Record<string, number> = {};
        for (const entry of trimmed.split(',')) {
          const [name = '', value = '', ...rest] = entry.split('=').map((part) => part.trim());
          const id = name.toLowerCase();
          const n = rate(value);
          if (rest.length > 0 || id === '' || n === undefined) {
            ctx.addIssue({ code: 'custom', message: ratesNotUnderstood(entry) });
            return undefined;
          }
          if (Object.hasOwn(rates, id)) {
            ctx.addIssue({ code: 'custom', message: `OPENMATES_PROVIDER_RATE_PER_S names ${id} twice` });
            return undefined;
          }
          rates[id] = n;
        }
        return rates;
      })
      .optional(),
  ),
);

export const ratesNotUnderstood = (entry: string) =>
  `${RATE_MESSAGE} (not understood: ${JSON.stringify(entry.trim())})`;
