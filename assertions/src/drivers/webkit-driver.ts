import type { SurfaceDriver } from '../case.ts';
import { type BrowserSession, createGuiColumn, type GuiColumnOptions } from './page-actions.ts';
import { seleniumPage, startWebKit } from './webkit.ts';

/** WebKitGTK's MiniBrowser under its own Xvfb, over classic WebDriver; one window for every case of the column. */
async function openWebKit(): Promise<BrowserSession> {
  const host = await startWebKit();
  try {
    const driver = await host.session();
    return { page: seleniumPage(driver), close: () => host.close() };
  } catch (failure) {
    await host.close();
    throw failure;
  }
}

/**
 * The web GUI in WebKit, the engine of Safari and of every browser on iPhone and iPad: the same
 * cases and page actions as the Chromium column (`web`), by the same names.
 */
export function createWebkitDriver(options: GuiColumnOptions = {}): SurfaceDriver {
  return createGuiColumn('webkit', openWebKit, options);
}
