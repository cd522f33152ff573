import { cleanText, codePointLength } from '@openmates/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanPlainText, htmlToText } from './html-to-text.ts';
import { createRedactor, MIN_REDACTED_SECRET_LENGTH, REDACTED } from './redact.ts';
import { sanitizeDescription, sanitizePassthrough, sanitizeTitle } from './sanitize-text.ts';
import { truncate } from './truncate.ts';
import { admitUrl } from './url-admission.ts';

/**
 * Written out here rather than imported, so the properties check the contract's cleanText against
 * an independent list: controls (Cc), zero-width and joiners, bidi marks, embeddings, overrides and
 * isolates, word joiner and invisible operators, BOM, soft hyphen, Unicode tag characters, and
 * every other format character.
 */
const FORBIDDEN =
  /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}\p{Cc}\p{Cf}]/u;

/** Pieces of hostile markup, mixed with arbitrary text to build inputs. */
const HOSTILE = [
  '<b>',
  '</b>',
  '<p>',
  '</div>',
  '<br/>',
  '<script>',
  '</script>',
  '<style>',
  '<svg>',
  '<!--',
  '-->',
  '<a title="<b>x</b>">',
  '<',
  '>',
  '&',
  '&amp;',
  '&lt;',
  '&amp;lt;',
  '&#0;',
  '&#x202E;',
  '&#xE0041;',
  '&nbsp;',
  '&#x200B;',
  ' ',
  '\n',
  '\u00A0',
  '\u3000',
  '\u200B',
  '\u200D',
  '\u202E',
  '\u2066',
  '\uFEFF',
  '\u{E0001}',
  '\u{E0041}',
  '\u0000',
  '\u0085',
  '\u0301',
  '\u0323',
  'e\u0301',
  '\uD800',
  '\uDFFF',
  '😀',
  '\u{1F1EC}\u{1F1E7}',
  '👨\u200D👩',
  '👩🏽\u200D💻',
  'क्\u200Dष',
  'می\u200Cخواهم',
  '\u200C',
  '한',
  '\u1100\u1161',
];

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 80 })
    .map((parts) => parts.join('')),
);

/**
 * A joiner left in text (ADR 0004) sits where it can join: after a mark (a virama, a vowel sign), a
 * ZWJ between pictographs (the first with its skin tone), a ZWNJ between letters. A looser,
 * independent statement of the rule than the contract's.
 */
function joinersInPlace(out: string): boolean {
  const chars = [...out];
  return chars.every((char, i) => {
    if (char !== '\u200C' && char !== '\u200D') return true;
    const [before = '', after = ''] = [chars[i - 1], chars[i + 1]];
    if (/\p{M}/u.test(before)) return true;
    if (char === '\u200D')
      return /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u.test(before) && /\p{Extended_Pictographic}/u.test(after);
    return /\p{L}/u.test(before) && /[\p{L}\p{M}]/u.test(after);
  });
}

function expectPlainAndBounded(out: string, max: number): void {
  expect(codePointLength(out)).toBeLessThanOrEqual(max);
  expect(out.replace(/[\u200C\u200D]/g, '')).not.toMatch(FORBIDDEN);
  expect(joinersInPlace(out), JSON.stringify(out)).toBe(true);
  expect(out).not.toMatch(/^\s|\s$/u);
  expect(out).not.toMatch(/\s{2}/u);
  expect(out).not.toMatch(/\p{Cs}/u);
}

describe('text hygiene properties', () => {
  it('htmlToText never exceeds its bound and leaves only plain, trimmed, NFC text', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), (input, max) => {
        const out = htmlToText(input, max);
        expectPlainAndBounded(out, max);
        expect(out).toBe(out.normalize('NFC'));
      }),
      { numRuns: 2000 },
    );
  });

  it('htmlToText cleans text without markup as the full rule does, ASCII shortcut or not', () => {
    // Printable ASCII takes a shortcut; one control or non-ASCII character sends it down the full path.
    const plain = fc.string({
      unit: fc.constantFrom(
        ' ',
        '  ',
        'a',
        'Z',
        '9',
        '.',
        '-',
        '\t',
        '\n',
        '\u00a0',
        '\u200b',
        'e\u0301',
        '\u{1F600}',
        '\x7f',
      ),
      maxLength: 80,
    });
    fc.assert(
      fc.property(plain, fc.integer({ min: 0, max: 60 }), (input, max) => {
        expect(htmlToText(input, max)).toBe(truncate(cleanText(input).normalize('NFC'), max));
      }),
      { numRuns: 2000 },
    );
  });

  it('cleanPlainText never parses: it keeps every `<`, `>` and `&` and cleans exactly as the full rule does', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), (input, max) => {
        const out = cleanPlainText(input, max);
        expectPlainAndBounded(out, max);
        expect(out).toBe(truncate(cleanText(input.replace(/\p{Cs}/gu, '\uFFFD')).normalize('NFC'), max));
      }),
      { numRuns: 2000 },
    );
  });

  it('truncate never exceeds its bound nor leaves surrounding whitespace or a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 0, max: 100 }), (input, max) => {
        const out = truncate(input, max);
        expect(codePointLength(out)).toBeLessThanOrEqual(max);
        expect(out).toBe(out.trim());
        expect(out).not.toMatch(/\p{Cs}/u);
      }),
      { numRuns: 1000 },
    );
  });

  it('truncate cuts only between graphemes: it keeps a prefix of whole graphemes, then `…`', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), fc.integer({ min: 2, max: 60 }), (input, max) => {
        const whole = input.trim();
        const out = truncate(input, max);
        if (out === whole) return;
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(whole.startsWith(kept)).toBe(true);
        const boundaries = new Set([...segmenter.segment(whole)].map((s) => s.index));
        const first = [...segmenter.segment(whole)][0]?.segment ?? '';
        // Only a first grapheme longer than the whole budget is cut inside.
        if (codePointLength(first) < max)
          expect(boundaries.has(kept.length) || kept.length === whole.length).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('the sanitizers hold their contract bounds for any input', () => {
    const url = fc
      .webUrl()
      .map(admitUrl)
      .filter((u): u is string => u !== null);
    fc.assert(
      fc.property(fc.oneof(text, fc.anything()), url, (raw, admitted) => {
        for (const format of ['html', 'text'] as const) {
          const title = sanitizeTitle(raw, admitted, format);
          expectPlainAndBounded(title, 300);
          expect(title.length).toBeGreaterThan(0);
          expectPlainAndBounded(sanitizeDescription(raw, format), 1000);
          const passthrough = sanitizePassthrough(raw, format);
          if (passthrough !== undefined) {
            expectPlainAndBounded(passthrough, 64);
            expect(passthrough.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('URL admission properties', () => {
  const candidate = fc.oneof(
    fc.webUrl({
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: { withUserInfo: true, withPort: true },
    }),
    fc.string({ unit: 'binary', maxLength: 100 }),
    fc
      .tuple(
        fc.constantFrom('http://', 'HTTPS://', 'https:', 'javascript:', 'data:', '//', '', ' https://'),
        fc.string({ unit: 'binary', maxLength: 60 }),
      )
      .map(([scheme, rest]) => scheme + rest),
  );

  it('admits only bounded, credential-free http(s) URLs, and admitting again changes nothing', () => {
    fc.assert(
      fc.property(candidate, (raw) => {
        const out = admitUrl(raw);
        if (out === null) return;
        const url = new URL(out);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.username).toBe('');
        expect(url.password).toBe('');
        expect(url.hostname).not.toBe('');
        expect(out.length).toBeLessThanOrEqual(2048);
        expect(out).toBe(url.href);
        expect(admitUrl(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('redaction properties', () => {
  const letter = fc.constantFrom('a', '[', ']', 'r', 'e', 'd', 'c', 't');
  const MARKER_PIECES = [REDACTED, REDACTED.slice(1), REDACTED.slice(0, -1), REDACTED.slice(1, -1), REDACTED.slice(3)];
  const secret = fc.oneof(
    fc.string({ unit: 'binary', minLength: MIN_REDACTED_SECRET_LENGTH, maxLength: 40 }),
    fc.stringMatching(/^[A-Za-z0-9_-]{8,48}$/),
    // Secrets built from a small alphabet overlap each other and themselves.
    fc.string({ unit: letter, minLength: 8, maxLength: 12 }),
    // Secrets overlapping the marker can be re-formed by a replacement.
    fc
      .tuple(
        fc.string({ unit: letter, maxLength: 3 }),
        fc.constantFrom(...MARKER_PIECES),
        fc.string({ unit: letter, maxLength: 3 }),
      )
      .map((parts) => parts.join(''))
      .filter((s) => s.length >= MIN_REDACTED_SECRET_LENGTH),
  );

  it('removes every configured secret, in every encoded form, from text built around them', () => {
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 4 }).chain((secrets) => {
          const forms = secrets.flatMap((s) => [
            s,
            encodeURIComponent(s),
            new URLSearchParams({ s }).toString().slice(2),
          ]);
          const pieces = fc.array(fc.oneof(fc.constantFrom(...forms), fc.string({ maxLength: 6 })), { maxLength: 12 });
          return fc.tuple(fc.constant(secrets), fc.constant(forms), pieces);
        }),
        ([secrets, forms, pieces]) => {
          const out = createRedactor(secrets)(pieces.join(''));
          for (const form of forms) expect(out.includes(form)).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves text that holds no secret unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(secret, { maxLength: 3 }),
        fc.string({ unit: 'binary', maxLength: 100 }),
        (secrets, input) => {
          const forms = secrets.flatMap((s) => [
            s,
            encodeURIComponent(s),
            new URLSearchParams({ s }).toString().slice(2),
          ]);
          fc.pre(forms.every((form) => !input.includes(form)));
          expect(createRedactor(secrets)(input)).toBe(input);
        },
      ),
    );
  });
});
