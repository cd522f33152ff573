import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contract,assertions,packages,apps}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.ts', '**/.svelte-kit/**'],
    // Fixture servers, child processes and browsers need more than the 5 s default on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Type-level tests (`*.test-d.ts`) run through tsc with the owning package's tsconfig.
    typecheck: {
      enabled: true,
      include: ['packages/sdk/**/*.test-d.ts'],
      tsconfig: 'packages/sdk/tsconfig.json',
    },
  },
});
