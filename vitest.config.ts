import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contract,assertions,packages,apps}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.ts', '**/.svelte-kit/**'],
    // Fixture servers, child processes and browsers need more than the 5 s default on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // At least two files at a time (Vitest's default is one fewer than the cores: one, on 2 cores).
    // The parity file is two thirds of the run and waits on browsers and child processes for about
    // a third of its time; the other files run in that time instead of queueing behind it. Each file
    // starts its own fixtures, Redis and nginx on free ports, so two files share no server.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Type-level tests (`*.test-d.ts`) run through tsc with the owning package's tsconfig.
    typecheck: {
      enabled: true,
      include: ['packages/sdk/**/*.test-d.ts'],
      tsconfig: 'packages/sdk/tsconfig.json',
    },
  },
});
