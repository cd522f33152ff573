import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (longest first from its cache, else the largest file first), with the parity
 * suite ahead of everything: on a fresh clone there is no cache, and the parity suite, a small file
 * that runs for about two minutes, would otherwise start last and run alone at the end.
 */
class ParityFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) => (spec.moduleId.endsWith('/assertions/src/parity.test.ts') ? 0 : 1);
    return sorted.sort((a, b) => first(a) - first(b));
  }
}

export default defineConfig({
  test: {
    include: ['{contract,assertions,packages,apps}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.ts', '**/.svelte-kit/**'],
    // Fixture servers, child processes and browsers need more than the 5 s default on 2 cores.
    testTimeout: 60_000,
    sequence: { sequencer: ParityFirst },
    // Vitest's default is one worker fewer than the cores: one worker here. Most suites wait on
    // servers, child processes and a browser rather than compute, so two files at a time halve the
    // run; the parity suite, first, runs beside the rest instead of alone after them.
    maxWorkers: 2,
    hookTimeout: 60_000,
    // Type-level tests (`*.test-d.ts`) run through tsc with the owning package's tsconfig.
    typecheck: {
      enabled: true,
      include: ['packages/sdk/**/*.test-d.ts'],
      tsconfig: 'packages/sdk/tsconfig.json',
    },
  },
});
