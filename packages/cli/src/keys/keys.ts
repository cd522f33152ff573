import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KeyFileEntry } from '@openmates/contract';
import { keySha256, readKeysFile } from '@openmates/server';

/** A new API key: `om_` and 32 random bytes, base64url (46 characters). */
export function newApiKey(): string {
  return `om_${randomBytes(32).toString('base64url')}`;
}

/**
 * Writes the keys file whole: a new file beside it, renamed over it, so a server reading it (ADR
 * 0137) sees the old list or the new one, never half of one.
 */
export function writeKeysFile(path: string, entries: readonly KeyFileEntry[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const next = `${path}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o644 });
  renameSync(next, path);
}

/** The limits `keys add` takes. */
export interface KeyLimits {
  rate_limit_per_min?: number;
  calls_per_day?: number;
  usd_per_month?: number;
}

/**
 * Adds a named key to the file (created when absent): returns the key, which is printed once and
 * stored nowhere (the file keeps its SHA-256). Throws an Error when the name is taken.
 */
export function addKey(path: string, name: string, limits: KeyLimits): string {
  const entries = readKeysFile(path);
  if (entries.some((entry) => entry.name === name))
    throw new Error(`a key named ${name} is already in ${path}: remove its entry first, or choose another name`);
  const key = newApiKey();
  const entry: KeyFileEntry = { name, key_sha256: keySha256(key), ...limits };
  writeKeysFile(path, [...entries, entry]);
  return key;
}

/** `keys list`'s table: names and limits, never a key or its hash. */
export function keysTable(entries: readonly KeyFileEntry[]): string {
  const rows = [
    ['NAME', 'PER MIN', 'CALLS/DAY', 'USD/MONTH'],
    ...entries.map((e) => [
      e.name,
      e.rate_limit_per_min === undefined ? '-' : String(e.rate_limit_per_min),
      e.calls_per_day === undefined ? '-' : String(e.calls_per_day),
      e.usd_per_month === undefined ? '-' : String(e.usd_per_month),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
