import { once, PROVIDER_IDS, type ProviderId } from '@openmates/contract';
import { z } from 'zod';
import type { EngineConfig } from './config.ts';
import { blankToUndefined } from './shared/env-schema.ts';

/** US dollars per billed unit, by provider id: what `OPENMATES_PRICES` sets. */
export type PriceOverrides = { [K in ProviderId]?: number };

const PRICES_MESSAGE =
  'OPENMATES_PRICES must list provider=USD per billed unit, separated by commas (brave=0.005,openai=0.01)';

/** The overrides `text` lists, or the entry it does not understand. */
export function readPrices(text: string): { prices: PriceOverrides } | { problem: string } {
  const prices: PriceOverrides = {};
  for (const entry of text.split(',')) {
    const [name = '', value = '', ...rest] = entry.split('=').map((part) => part.trim());
    const id = name.toLowerCase();
    const usd = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (rest.length > 0 || !(PROVIDER_IDS as readonly string[]).includes(id) || !Number.isFinite(usd))
      return {
        problem: `${PRICES_MESSAGE}; not understood: ${JSON.stringify(entry.trim())} (providers: ${PROVIDER_IDS.join(', ')})`,
      };
    if (prices[id as ProviderId] !== undefined) return { problem: `OPENMATES_PRICES names ${id} twice` };
    prices[id as ProviderId] = usd;
  }
  return { prices };
}

/** `OPENMATES_PRICES`: `brave=0.005,openai=0.01`, each a number ≥ 0 of US dollars per billed unit. */
export const priceOverrides = once(() =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((text, ctx): PriceOverrides | undefined => {
        const read = readPrices(text);
        if ('prices' in read) return read.prices;
        ctx.addIssue({ code: 'custom', message: read.problem });
        return undefined;
      })
      .optional(),
  ),
);

/**
 * A provider's price per billed unit as this configuration applies it: `OPENMATES_PRICES`, else
 * the price its module declares; undefined when neither prices it.
 */
export function unitPriceUsd(config: Pick<EngineConfig, 'prices'>, id: string): number | undefined {
  return config.prices?.[id as ProviderId];
}
