import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalDocument, openIndex } from '@openmates/core';

/** A secret configured but not selected in the local cases: redaction must still remove it. */
export const LOCAL_CANARY = 'openmates-canary-local-0000-not-a-real-key';

/** The hostile documents the local cases search. */
export function localCorpus(): LocalDocument[] {
  const widgets = Array.from({ length: 12 }, (_, i) => ({
    url: `https://widgets.example.com/widget-${i + 1}`,
    title: `Widget number ${i + 1}`,
    body: `The widget catalogue entry ${i + 1} describes a sprocket widget.`,
    language: 'en',
    family_friendly: true,
  }));
  return [
    {
      url: 'https://docs.example.com/abort',
      title: 'AbortController <b>guide</b><script>alert(1)</script>',
      body: 'Use an AbortController to abort a fetch request.',
      description: 'How to <i>abort</i> a fetch &amp; clean up\u200B\u202E',
      language: 'en',
      published: '2024-05-01',
      family_friendly: true,
    },
    {
      url: 'https://docs.example.com/leak',
      title: 'Token handling notes',
      body: `Never paste ${LOCAL_CANARY} into a page about tokens.`,
      description: `Token ${LOCAL_CANARY} leaked here`,
      language: 'en',
      family_friendly: true,
    },
    {
      url: 'javascript:alert(1)',
      title: 'A script URL about tokens',
      body: 'tokens tokens tokens',
      language: 'en',
      family_friendly: true,
    },
    {
      url: 'https://adults.example.com/page',
      title: 'Sprocket nightlife',
      body: 'A sprocket page not marked family friendly.',
      language: 'en',
      family_friendly: false,
    },
    {
      url: 'https://de.example.com/seite',
      title: 'Sprocket auf Deutsch',
      body: 'Eine deutsche Seite über sprocket.',
      language: 'de',
      family_friendly: true,
    },
    {
      // Plain http on a port: meta_url's scheme and netloc then differ from the usual.
      url: 'http://legacy.example.net:8080/gopherine',
      title: 'Gopherine archive',
      body: 'An old gopherine page served over plain http.',
      language: 'en',
      published: '2019-11-30',
      family_friendly: true,
    },
    ...widgets,
  ];
}

/** Builds the hostile local index in a fresh temporary folder and returns its path. */
export function buildLocalIndex(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'openmates-parity-')), 'index.db');
  const index = openIndex(path);
  try {
    index.addDocuments(localCorpus());
  } finally {
    index.close();
  }
  return path;
}
