import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: {
    'fast-search': 'src/fast-search.ts',
    'fast-mcp': 'src/fast-mcp.ts',
    version: 'src/version.ts',
    'commands/search': 'src/commands/search.ts',
    'commands/serve': 'src/commands/serve.ts',
    'commands/mcp': 'src/commands/mcp.ts',
    'commands/doctor': 'src/commands/doctor.ts',
    'commands/index/add': 'src/commands/index/add.ts',
    'commands/index/stats': 'src/commands/index/stats.ts',
    'commands/index/clear': 'src/commands/index/clear.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  outExtensions: () => ({ js: '.js' }),
  // The workspace packages are private and export TypeScript source, so they are bundled in, with
  // their pure-JS dependencies: one file per command path loads faster than hundreds of modules
  // (see README, "Cold start"). The CLI's own dependencies stay external: oclif (loaded from its
  // manifest), swagger-ui-dist (the docs page reads its files from disk) and the output helpers.
  // tsdown keeps `dependencies` external and bundles everything else it meets.
  deps: { onlyBundle: false },
  dts: false,
  sourcemap: false,
  clean: true,
});
