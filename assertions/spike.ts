import { spawn } from 'node:child_process';
import { Builder } from 'selenium-webdriver';

const [w, h, ...args] = process.argv.slice(2);
const xvfb = spawn('Xvfb', [':97', '-screen', '0', `${w}x${h}x24`, '-nolisten', 'tcp'], { stdio: 'inherit' });
const env = { ...process.env, DISPLAY: ':97' } as Record<string, string>;
if (process.env.THEME) env.GTK_THEME = process.env.THEME;
const drv = spawn('WebKitWebDriver', ['--port=4997'], { stdio: 'inherit', env });
await new Promise((r) => setTimeout(r, 1000));
try {
  const d = await new Builder()
    .usingServer('http://127.0.0.1:4997')
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation', ...args],
      },
    })
    .build();
  await d.get('data:text/html,<h1>hi</h1>');
  console.log(
    await d.executeScript(
      'return [matchMedia("(prefers-color-scheme: dark)").matches, innerWidth, innerHeight, devicePixelRatio]',
    ),
  );
  if (process.env.FS) {
    await d.manage().window().fullscreen();
    console.log('fs', await d.executeScript('return [innerWidth, innerHeight]'));
  }
  if (process.env.MAX) {
    await d.manage().window().maximize();
    console.log('max', await d.executeScript('return [innerWidth, innerHeight]'));
  }
  await d.quit();
} finally {
  drv.kill();
  xvfb.kill();
}
