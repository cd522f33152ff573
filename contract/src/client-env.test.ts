import { describe, expect, it } from 'vitest';
import { CLIENT_ENVIRONMENT, clientVariable } from './client-env.ts';

describe('the API client environment', () => {
  it('supplies each client setting from exactly one variable, named by the OPENMATES_ prefix', () => {
    for (const setting of ['baseURL', 'apiKey'] as const) {
      const names = Object.entries(CLIENT_ENVIRONMENT).filter(([, row]) => row.setting === setting);
      expect(names).toHaveLength(1);
      expect(clientVariable(setting)).toBe(names[0]?.[0]);
    }
    for (const name of Object.keys(CLIENT_ENVIRONMENT)) expect(name).toMatch(/^OPENMATES_[A-Z_]+$/);
  });
});
