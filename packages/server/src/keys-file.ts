import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { type KeyFileEntry, KeysFileSchema } from '@openmates/contract';

/** SHA-256 of a key, as the keys file holds it (64 lowercase hex digits). */
export function keySha256(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** One key the server accepts: its name and limits from the keys file, or none for `OPENMATES_API_KEYS`. */
export interface KeyIdentity {
  /** What the rate limit and the quotas count under; never the key itself. */
  readonly id: string;
  /** The entry's name; null for a key of `OPENMATES_API_KEYS`. */
  readonly name: string | null;
  readonly entry: KeyFileEntry | undefined;
}

/**
 * Parses the keys file's text: a JSON array of `{ name, key_sha256, rate_limit_per_min?,
 * calls_per_day?, usd_per_month? }`, names and hashes unique. Throws an Error naming the path and
 * the field.
 */
export function parseKeysFile(text: string, path: string): KeyFileEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`OPENMATES_API_KEYS_FILE: ${path} is not JSON`);
  }
  const parsed = KeysFileSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `OPENMATES_API_KEYS_FILE: ${path}: ${parsed.error.issues.map((i) => `[${i.path.join('.')}] ${i.message}`).join('; ')}`,
    );
  const names = new Set<string>();
  const hashes = new Set<string>();
  for (const entry of parsed.data) {
    if (names.has(entry.name)) throw new Error(`OPENMATES_API_KEYS_FILE: ${path}: the name ${entry.name} is repeated`);
    if (hashes.has(entry.key_sha256))
      throw new Error(`OPENMATES_API_KEYS_FILE: ${path}: the key of ${entry.name} is listed twice`);
    names.add(entry.name);
    hashes.add(entry.key_sha256);
  }
  return parsed.data;
}

/** Reads and parses the keys file (an absent file is an empty list: `keys add` creates it). */
export function readKeysFile(path: string): KeyFileEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`OPENMATES_API_KEYS_FILE: cannot read ${path}: ${(error as Error).message}`);
  }
  return parseKeysFile(text, path);
}

interface Known {
  readonly digest: Buffer;
  readonly identity: KeyIdentity;
}

/**
 * The keys a server accepts: `OPENMATES_API_KEYS` and the entries of `OPENMATES_API_KEYS_FILE`.
 * The file is re-read when it changes (ADR 0137): each authentication first compares the file's
 * modification time, size and inode with what was read (one `stat`), so a key `openmates keys add`
 * wrote authenticates on its next request and a removed one stops at once. A file that no longer
 * parses keeps the last good list (and says so through `onError`).
 */
export class KeyRing {
  readonly #plain: Known[];
  readonly #path: string | undefined;
  readonly #onError: (message: string) => void;
  #stamp = '';
  #fromFile: Known[] = [];

  constructor(options: { keys: readonly string[]; path?: string; onError?: (message: string) => void }) {
    this.#plain = options.keys.map((key) => {
      const sha = keySha256(key);
      return { digest: Buffer.from(sha, 'hex'), identity: { id: `key:${sha}`, name: null, entry: undefined } };
    });
    this.#path = options.path;
    this.#onError = options.onError ?? (() => {});
    // At start a bad file is fatal (the caller reports it); later it only keeps the last good list.
    if (this.#path !== undefined) this.#load(true);
  }

  /** True when some key is configured (or a keys file is named, which may gain keys): keys are then required. */
  get required(): boolean {
    return this.#path !== undefined || this.#plain.length > 0;
  }

  /** The entries of the file as last read. */
  get entries(): KeyFileEntry[] {
    this.#refresh();
    return this.#fromFile.map((k) => k.identity.entry as KeyFileEntry);
  }

  #stampOf(): string {
    try {
      const s = statSync(this.#path as string, { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch {
      return 'absent';
    }
  }

  #load(fatal: boolean): void {
    const stamp = this.#stampOf();
    if (stamp === this.#stamp) return;
    try {
      const entries = readKeysFile(this.#path as string);
      this.#fromFile = entries.map((entry) => ({
        digest: Buffer.from(entry.key_sha256, 'hex'),
        identity: { id: `name:${entry.name}`, name: entry.name, entry },
      }));
      this.#stamp = stamp;
    } catch (error) {
      if (fatal) throw error;
      this.#stamp = stamp;
      this.#onError((error as Error).message);
    }
  }

  #refresh(): void {
    if (this.#path !== undefined) this.#load(false);
  }

  /**
   * The identity of `Authorization: Bearer <key>` in constant time: the presented key is hashed and
   * compared with every configured hash whatever the others' outcome. Undefined: not a known key.
   */
  authenticate(authorization: string | null): KeyIdentity | undefined {
    this.#refresh();
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const presented = createHash('sha256')
      .update(match?.[1] ?? '', 'utf8')
      .digest();
    let found: KeyIdentity | undefined;
    for (const known of [...this.#plain, ...this.#fromFile])
      if (timingSafeEqual(known.digest, presented) && match) found = known.identity;
    return found;
  }
}
