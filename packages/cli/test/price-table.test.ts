// The price table of docs/usage-and-quotas.md is what each provider's module declares.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { priceTable, USAGE_PAGE_PATH, usagePage } from '../scripts/price-table.ts';

describe('docs/usage-and-quotas.md', () => {
  it('shows the price table as the provider modules declare it (run `pnpm generate` after a change)', () => {
    const text = readFileSync(USAGE_PAGE_PATH, 'utf8');
    expect(text).toBe(usagePage(text));
    expect(priceTable()).toMatch(
      /\| Brave Search \(`brave`\) +\| \$0\.005 +\| call +\| \d{4}-\d{2}-\d{2} +\| <https:\/\//,
    );
    expect(priceTable()).toMatch(/\| nothing +\|/);
  });
});
