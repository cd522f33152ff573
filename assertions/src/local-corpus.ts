import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalDocument, openIndex } from '@openmates/core';

/** A secret configured but not selected in the local cases: redaction must still remove it. */
export const LOCAL_CANARY = 'openmates-canary-local-0000-not-a-real-key';

/**
 * Reference pages whose names are written with markup-like characters, as the web platform's own
 * vocabulary is: the index holds plain text, so `<div>` is a name that must reach the caller intact.
 */
export const NAMED_DOCUMENTS: LocalDocument[] = [
  {
    url: 'https://developer.mozilla.org/docs/Web/HTML/Reference/Elements/div',
    title: '<div> HTML element',
    body: 'The div element is the generic container for flow content.',
    description: 'The <div> HTML element is the generic container for flow content.',
    language: 'en',
    family_friendly: true,
  },
  {
    url: 'https://developer.mozilla.org/docs/Web/HTML/Reference/Elements/code',
    title: '<code> HTML element',
    body: 'The code element displays its contents as a fragment of computer code.',
    description: 'The <code> element shows a fragment of computer code, such as Vec<T> or a < b > c.',
    language: 'en',
    family_friendly: true,
  },
  {
    url: 'https://developer.mozilla.org/docs/Web/HTML/Reference/Elements/dialog',
    title: '<dialog> HTML element',
    body: 'The dialog element represents a modal dialog box.',
    description: 'The <dialog> HTML element represents a modal dialog box, such as a confirmation prompt.',
    language: 'en',
    family_friendly: true,
  },
  {
    url: 'https://developer.mozilla.org/docs/Web/HTML/Reference/Elements/input/date',
    title: '<input type="date">',
    body: 'Input elements of type date let the user enter a date in a text box.',
    description: '<input> elements of type="date" let the user enter a date in a text box.',
    language: 'en',
    family_friendly: true,
  },
  {
    url: 'https://developer.mozilla.org/docs/Web/CSS/Reference/Values/color_value',
    title: '<color> CSS value type',
    body: 'The color CSS data type represents a color in the sRGB color space.',
    description: 'The <color> CSS data type represents a color.',
    language: 'en',
    family_friendly: true,
  },
];

/** The hostile documents the local cases search, and the named reference pages. */
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
    ...NAMED_DOCUMENTS,
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
