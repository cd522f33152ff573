import { admitUrl } from '../../hygiene/url-admission.ts';

/**
 * A document to index. `url` identifies it: adding a document with a known URL replaces it. It must
 * be an absolute http(s) URL (ADR 0018), the only kind a search result may carry.
 */
export interface LocalDocument {
  url: string;
  title: string;
  body: string;
  /** Shown as the result description; without one, a snippet of the body around the match is. */
  description?: string;
  /** Language tag (`en`, `pt-BR`); stored as its lowercase primary subtag, which `search_lang` matches. */
  language?: string;
  /** Publication date, ISO 8601 (`2024-05-01` or a full timestamp); returned as the result's `age`. */
  published?: string;
  /** True when the document is fit for `safesearch=strict`; unknown counts as not. */
  family_friendly?: boolean;
}

/** Why a document whose URL is not one a search result may carry is refused. */
export const URL_NOT_HTTP_REASON =
  'url is not an absolute http(s) URL (no credentials, at most 2048 characters), so it could never be a search result';

/** A document as stored: validated, URL normalized, language reduced to its primary subtag, date checked. */
export interface StoredDocument {
  url: string;
  title: string;
  body: string;
  description: string | null;
  language: string | null;
  published: string | null;
  family_friendly: number | null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The `YYYY-MM-DD` date of an ISO 8601 date or timestamp, or undefined when it is not one. */
export function isoDate(value: string): string | undefined {
  const trimmed = value.trim();
  const match = ISO_DATE.exec(trimmed);
  if (match === null || Number.isNaN(Date.parse(trimmed))) return undefined;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** The lowercase primary subtag of a BCP 47 language tag (`pt-BR` → `pt`), or undefined. */
export function primaryLanguage(tag: string): string | undefined {
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

/**
 * Checks a document from an untrusted source (a JSONL line, a caller) and returns what is stored,
 * or the reason it cannot be. Optional fields of the wrong shape are reasons too, never ignored.
 * The URL is admitted by the engine's own rule (`admitUrl`) and stored normalized, so a document is
 * refused here rather than stored and then dropped from every result.
 */
export function toStoredDocument(input: unknown): StoredDocument | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'not a JSON object';
  const doc = input as Record<string, unknown>;
  if (typeof doc.url !== 'string' || doc.url.trim() === '') return 'url must be a non-empty string';
  const url = admitUrl(doc.url);
  if (url === null) return URL_NOT_HTTP_REASON;
  if (typeof doc.title !== 'string') return 'title must be a string';
  if (typeof doc.body !== 'string') return 'body must be a string';
  for (const field of ['description', 'language', 'published'] as const)
    if (doc[field] !== undefined && doc[field] !== null && typeof doc[field] !== 'string')
      return `${field} must be a string`;
  if (doc.family_friendly !== undefined && doc.family_friendly !== null && typeof doc.family_friendly !== 'boolean')
    return 'family_friendly must be a boolean';
  let language: string | null = null;
  if (typeof doc.language === 'string' && doc.language.trim() !== '') {
    language = primaryLanguage(doc.language) ?? null;
    if (language === null) return 'language must be a language tag such as "en" or "pt-BR"';
  }
  let published: string | null = null;
  if (typeof doc.published === 'string' && doc.published.trim() !== '') {
    published = isoDate(doc.published) ?? null;
    if (published === null) return 'published must be an ISO 8601 date such as "2024-05-01"';
  }
  return {
    url,
    title: doc.title,
    body: doc.body,
    description: typeof doc.description === 'string' && doc.description.trim() !== '' ? doc.description : null,
    language,
    published,
    family_friendly: typeof doc.family_friendly === 'boolean' ? Number(doc.family_friendly) : null,
  };
}
