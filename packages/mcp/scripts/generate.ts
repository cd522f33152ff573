import { writeFileSync } from 'node:fs';
import { APP_PATH, generatedApp, generatedIcons, ICONS_PATH } from './app-file.ts';

// Writes the MCP App page and the icons modules (see app-file.ts).
writeFileSync(ICONS_PATH, generatedIcons());
writeFileSync(APP_PATH, await generatedApp());
console.log(`wrote ${APP_PATH} and ${ICONS_PATH}`);
