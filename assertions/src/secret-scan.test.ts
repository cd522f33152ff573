import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// web-search.secrets.never-exposed, for what is committed: examples, fixtures and docs must hold
// nothing shaped like a real key. secretlint's recommended preset knows the real key formats.
const root = fileURLToPath(new URL('../../', import.meta.url));
// secretlint's exports map hides its bin; pnpm links the package into this workspace's node_modules.
const secretlint = join(root, 'assertions/node_modules/secretlint/bin/secretlint.js');
const config = join(root, '.secretlintrc.json');
const scratch = mkdtempSync(join(tmpdir(), 'openmates-secretlint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function scan(files: string[], cwd: string) {
  return spawnSync(process.execPath, [secretlint, '--secretlintrc', config, '--format', 'json', ...files], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe('the committed tree', () => {
  it('holds nothing shaped like a real key', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && !f.endsWith('pnpm-lock.yaml'));
    expect(files.length).toBeGreaterThan(10);
    const result = scan(files, root);
    const findings = result.stdout.trim() ? JSON.parse(result.stdout) : [];
    const flagged = findings.filter((f: { messages: unknown[] }) => f.messages.length > 0);
    expect(flagged.map((f: { filePath: string }) => f.filePath)).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('would flag a planted key (the scanner is really looking)', () => {
    // Built at run time so that no key-shaped string is ever committed.
    const token = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
    const aws = `AKIA${'Q7XW3ZK9PLM2RT5V'.slice(0, 16)}`;
    const file = join(scratch, 'planted.env');
    writeFileSync(file, `GITHUB_TOKEN=${token}\nAWS_ACCESS_KEY_ID=${aws}\n`);
    const result = scan([file], scratch);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('planted.env');
  });
});
