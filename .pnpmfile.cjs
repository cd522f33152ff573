// pnpm's hooks for this workspace. Only the CLI and the npm SDK are packed (the others are
// private); what they ship is their built files and a manifest naming only what an install needs:
// the workspace's devDependencies (pnpm pack turns `workspace:*` into versions of private names)
// and the build scripts, whose files stay in the repository, are dropped (ADR 0093).
module.exports = {
  hooks: {
    beforePacking(pkg) {
      delete pkg.devDependencies;
      delete pkg.scripts;
      return pkg;
    },
  },
};
