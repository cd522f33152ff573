import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Every test file of the repository. Each lands in exactly one project (assertions/src/test-projects.test.ts). */
export const TEST_FILES = '{contract,assertions,packages,apps}/**/*.test.ts';

/**
 * Tests that start what a unit test must not: a browser, Redis, nginx, Python, a packed artifact
 * or an `openmates` child process (fixture servers on loopback inside the test process are fine).
 */
export const INTEGRATION_FILES = [
  // The CLI run as a user runs it: `bin/run.js` in a child process, installed, or on an old Node.
  'packages/cli/test/{anthropic,chain,cluster,cold-start,commands,doctor-probes,doctor-tavily,floor-node,help-examples}.test.ts',
  'packages/cli/test/{install-cli,keys,mcp,old-node,serper}.test.ts',
  'packages/cli/test/{readme,remote-retry,search,serve-drain,stream,terminal}.test.ts',
  // Redis, nginx.
  'packages/server/src/{quotas,replicas,scope-cache}.test.ts',
  'packages/fixtures/src/cluster/*.test.ts',
  // The SDK as packed; the GUI's snippets run by Python; browsers.
  'packages/sdk/test/package.test.ts',
  'apps/web/src/lib/server/snippets.test.ts',
  'assertions/src/{mcp-app,more-results-webkit}.test.ts',
  // The seeded property suites against the whole server: ten thousand mutated bodies (most of a
  // minute of CPU) and the body fuzz, time-capped at 20 s a property. They start no process.
  'packages/server/src/{rest-fuzz,rest-mutations}.test.ts',
];

/** The surfaces compared through their drivers (CLI processes, browsers, pip), case by case. */
export const PARITY_FILES = [
  'assertions/src/{parity,parity-mutations,person-view,surface-properties,web-view}.test.ts',
];

const EXCLUDE = ['**/node_modules/**', '**/dist/**', '**/*.e2e.ts', '**/.svelte-kit/**'];

export default defineConfig({
  test: {
    exclude: EXCLUDE,
    // Fixture servers, child processes and browsers need more than the 5 s default on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // At least two files at a time (Vitest's default is one fewer than the cores: one, on 2 cores).
    // The parity file is two thirds of the run and waits on browsers and child processes for about
    // a third of its time; the other files run in that time instead of queueing behind it. Each file
    // starts its own fixtures, Redis and nginx on free ports, so two files share no server.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `vitest run` runs every project; `pnpm test:unit` runs `unit` alone.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [TEST_FILES],
          exclude: [...EXCLUDE, ...INTEGRATION_FILES, ...PARITY_FILES],
          // Nothing here waits on a process or a browser: a test that needs longer is in the wrong
          // project. A file's setup (building the demo corpus's index) may take longer than a test.
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // Type-level tests (`*.test-d.ts`) run through tsc with the owning package's tsconfig.
          typecheck: {
            enabled: true,
            include: ['packages/sdk/**/*.test-d.ts'],
            tsconfig: 'packages/sdk/tsconfig.json',
          },
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION_FILES } },
      { extends: true, test: { name: 'parity', include: PARITY_FILES } },
    ],
  },
});
