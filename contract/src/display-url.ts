/**
 * How a result's URL reads under its title, as a search engine shows it: the host, then each
 * path segment, joined by ` › ` (`developer.mozilla.org › en-US › docs › Web`). The query and
 * fragment are left out (the link keeps them); segments are percent-decoded where that is valid.
 * A URL that does not parse reads as it is.
 */
export function displayUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.host === '') return url;
  const segments = parsed.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return [parsed.host, ...segments].join(' › ');
}
