import { once } from '@openmates/contract';
import { z } from 'zod';
import type { AnyEngineConfig } from './config.ts';
import { blankToUndefined } from './shared/env-schema.ts';

/** US dollars per billed unit, by provider id: what `OPENMATES_PRICES` sets. */
export type PriceOverrides = { readonly [id: string]: number | undefined };

const PRICES_MESSAGE =
  'OPENMATES_PRICES must list provider=USD per billed unit, separated by commas (brave=0.005,openai=0.01)';

/** The refusal of an entry of `OPENMATES_PRICES`, naming it (and, when known, the providers it may name). */
export function pricesNotUnderstood(entry: string, ids?: readonly string[]): string {
  const known = ids ? ` (providers: ${ids.join(', ')})` : '';
  return `${PRICES_MESSAGE}; not understood: ${JSON.stringify(entry.trim())}${known}`;
}

/**
 * The overrides `text` lists, or what is wrong with it. Whether each name is a provider is
 * `loadConfig`'s to say, against its registry.
 */
export function readPrices(text: string): { prices: Record<string, number> } | { problem: string } {
  const prices: Record<string, number> = {};
  for (const entry of text.split(',')) {
    const [name = '', value = '', ...rest] = entry.split('=').map((part) => part.trim());
    const id = name.toLowerCase();
    const usd = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (rest.length > 0 || !/^[a-z][a-z0-9-]*$/.test(id) || !Number.isFinite(usd))
      return { problem: pricesNotUnderstood(entry) };
    if (Object.hasOwn(prices, id)) return { problem: `OPENMATES_PRICES names ${id} twice` };
    prices[id] = usd;
  }
  return { prices };
}

/** `OPENMATES_PRICES`: `brave=0.005,openai=0.01`, each a number ≥ 0 of US dollars per billed unit. */
export const priceOverrides = once(() =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((text, ctx): Record<string, number> | undefined => {
        const read = readPrices(text);
        if ('prices' in read) return read.prices;
        ctx.addIssue({ code: 'custom', message: read.problem });
        return undefined;
      })
      .optional(),
  ),
);

/**
 * A provider's price per billed unit as this configuration applies it: `OPENMATES_PRICES`, else the
 * price its module declares (0 for one that costs nothing); undefined when neither prices it (a
 * provider the registry does not list).
 */
export function unitPriceUsd(config: Pick<AnyEngineConfig, 'prices' | 'registry'>, id: string): number | undefined {
  const override = config.prices?.[id];
  if (override !== undefined) return override;
  const price = Object.hasOwn(config.registry, id) ? config.registry[id]?.price : undefined;
  if (price === undefined) return undefined;
  return price.costs === 'nothing' ? 0 : price.usd;
}
