// Copies the built GUI (apps/web: its handler wrapper and adapter-node's `build/`) into this
// package's `gui/`, so the packed CLI carries it and `openmates serve` finds it inside the installed
// package (ADR 0093). The build is self-contained (adapter-node bundles every dependency of the
// app), so nothing of the workspace is needed at run time. Source maps stay behind: they are most
// of the build's size and a user has no sources for them. Runs as the last step of `build`; when
// the GUI has not been built it leaves `gui/` out and says so, and `openmates serve` serves the API only.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../gui/', import.meta.url));
const web = dirname(fileURLToPath(import.meta.resolve('@openmates/web/handler')));

rmSync(target, { recursive: true, force: true });
if (!existsSync(join(web, 'build', 'handler.js'))) {
  console.warn(`copy-gui: ${join(web, 'build')} is not built; the CLI is built without its GUI`);
} else {
  cpSync(join(web, 'handler.js'), join(target, 'handler.js'));
  cpSync(join(web, 'build'), join(target, 'build'), {
    recursive: true,
    filter: (source) => !source.endsWith('.map'),
  });
}
