// The decision records in docs/adr/: one decision per file under the same four headings, an index
// that lists each one, and no citation anywhere in the repository of a number that has no file.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalize } from './outside-citations.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADR_DIR = join(ROOT, 'docs/adr');
const RECORD = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const HEADINGS = ['Context', 'Decision', 'Consequences', 'Status'];

const records = readdirSync(ADR_DIR)
  .filter((name) => RECORD.test(name))
  .sort()
  .map((name) => ({ name, number: name.slice(0, 4), text: readFileSync(join(ADR_DIR, name), 'utf8') }));

/** The status line of a record: the first non-empty line under `## Status`, without its full stop. */
function statusOf(text: string): string {
  const after = text.split(/^## Status$/m)[1] ?? '';
  return (after.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/\.$/, '');
}

describe('docs/adr', () => {
  it('holds only numbered records and their index (a draft is numbered before it lands)', () => {
    const others = readdirSync(ADR_DIR).filter((name) => name !== 'README.md' && !RECORD.test(name));
    expect(others).toEqual([]);
  });

  it('numbers its records from 0001 without gaps', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((r) => r.number)).toEqual(records.map((_, i) => String(i + 1).padStart(4, '0')));
  });

  it('gives every record its number as title and exactly the four headings, in order', () => {
    for (const { name, number, text } of records) {
      const titles = text.match(/^# .*$/gm) ?? [];
      expect(titles, name).toHaveLength(1);
      expect(titles[0], name).toMatch(new RegExp(`^# ${number}\\. \\S`));
      expect(
        (text.match(/^##+ .*$/gm) ?? []).map((h) => h.replace(/^##+ /, '')),
        name,
      ).toEqual(HEADINGS);
      for (const heading of HEADINGS) {
        const body = text.split(new RegExp(`^## ${heading}$`, 'm'))[1]?.split(/^## /m)[0] ?? '';
        expect(body.trim(), `${name}: ${heading}`).not.toBe('');
      }
    }
  });

  it('lists every record in its index with its title and status, and nothing else', () => {
    const index = readFileSync(join(ADR_DIR, 'README.md'), 'utf8');
    const rows = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\) +\| (.+?) +\| (.+?) +\| (.+?) +\|$/gm)];
    expect(rows.map((row) => row[2])).toEqual(records.map((r) => r.name));
    for (const [, number, name = '', title, status, line] of rows) {
      const record = records.find((r) => r.name === name);
      expect(name.startsWith(`${number}-`), name).toBe(true);
      expect(record?.text.split('\n')[0], name).toBe(`# ${number}. ${title}`);
      expect(status, name).toBe(statusOf(record?.text ?? ''));
      expect(line?.trim(), name).not.toBe('');
    }
  });

  it('is cited only by numbers that have a record', () => {
    const numbers = new Set(records.map((r) => r.number));
    const dangling: string[] = [];
    for (const path of execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0')) {
      if (!path || path.endsWith('pnpm-lock.yaml')) continue;
      let text: string;
      try {
        const bytes = readFileSync(join(ROOT, path));
        if (bytes.subarray(0, 8192).includes(0)) continue;
        text = bytes.toString('utf8');
      } catch {
        continue;
      }
      const { flat, lineAt } = normalize(text);
      for (const match of flat.matchAll(/\bADR (\d{4})\b/g))
        if (!numbers.has(match[1] ?? '')) dangling.push(`${path}:${lineAt(match.index)}: ADR ${match[1]}`);
    }
    expect(dangling).toEqual([]);
  });
});
