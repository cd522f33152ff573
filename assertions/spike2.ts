import { spawn } from 'node:child_process';
import { Builder } from 'selenium-webdriver';

const xvfb = spawn('Xvfb', [':97', '-screen', '0', `1600x1200x24`, '-nolisten', 'tcp'], { stdio: 'inherit' });
const env = { ...process.env, DISPLAY: ':97', XDG_CONFIG_HOME: '/tmp/gtkcfg' } as Record<string, string>;
const drv = spawn('WebKitWebDriver', ['--port=4997'], { stdio: 'inherit', env });
await new Promise((r) => setTimeout(r, 1000));
try {
  const d = await new Builder()
    .usingServer('http://127.0.0.1:4997')
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation'],
      },
    })
    .build();
  await d.get('data:text/html,<h1>hi</h1>');
  for (const [w, h] of [
    [300, 600],
    [390, 844],
    [500, 900],
    [1280, 800],
  ]) {
    const r = await d.manage().window().setRect({ width: w, height: h });
    console.log(
      w,
      h,
      JSON.stringify(r),
      await d.executeScript(
        'return [innerWidth, innerHeight, outerWidth, outerHeight, document.documentElement.clientWidth]',
      ),
    );
  }
  await d.quit();
} finally {
  drv.kill();
  xvfb.kill();
}
