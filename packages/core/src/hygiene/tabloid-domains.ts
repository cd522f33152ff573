/**
 * The tabloid press filtered by `filter_tabloids` (default on), as registrable domains.
 *
 * Criterion: titles commonly classed as tabloid journalism (sensational, celebrity- and
 * scandal-led news), in British and US English, by the usual classification of the press:
 * - the British "red tops" (The Sun, Daily Mirror, Daily Star, Daily Record) and the middle-market
 *   tabloids (Daily Mail, Daily Express), with their Irish and US editions;
 * - the US supermarket tabloids and celebrity-gossip outlets (National Enquirer, Star, In Touch,
 *   Radar Online, OK!, TMZ) and the New York Post with its gossip site Page Six.
 * Tabloid *format* alone does not qualify (Metro, the New York Daily News, the Boston Herald are
 * left out), and borderline titles are left out: the filter is on by default and a false positive
 * silently hides a legitimate source. Only domains each publication actually publishes under
 * belong here; packages/core/README.md ("The tabloid filter") gives the reasoning. Lowercase, punycode for IDNs.
 */
export const TABLOID_DOMAINS: readonly string[] = [
  // United Kingdom and Ireland
  'dailymail.co.uk', // Daily Mail, Mail on Sunday, MailOnline
  'dailymail.com', // MailOnline's US edition
  'thesun.co.uk', // The Sun
  'thesun.ie', // The Irish Sun
  'the-sun.com', // The US Sun
  'mirror.co.uk', // Daily Mirror, Sunday Mirror
  'irishmirror.ie', // Irish Mirror
  'dailystar.co.uk', // Daily Star
  'express.co.uk', // Daily Express, Sunday Express
  'dailyrecord.co.uk', // Daily Record (Scotland)
  'ok.co.uk', // OK! (UK)
  // United States
  'nypost.com', // New York Post
  'pagesix.com', // Page Six (New York Post)
  'nationalenquirer.com', // National Enquirer
  'starmagazine.com', // Star
  'intouchweekly.com', // In Touch Weekly
  'radaronline.com', // Radar Online
  'okmagazine.com', // OK! (US)
  'tmz.com', // TMZ
];
