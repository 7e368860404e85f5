import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { readSecretLocation, type SecretLocation, writeSecretLocation } from "../secret-location";

/** How long typing pauses before the search text reaches the URL (the table filters at once). */
const URL_DEBOUNCE_MS = 300;

/** The page's place (environment, folder, search, tag) as the URL says, and ways to change it. */
export function useSecretLocation() {
  const [params, setParams] = useSearchParams();
  const location = readSecretLocation(params);
  const update = useCallback(
    (patch: Partial<SecretLocation>) => setParams((current) => writeSecretLocation(current, patch)),
    [setParams],
  );
  /** The href of another place, keeping the rest of the URL. */
  const href = (patch: Partial<SecretLocation>) => `?${writeSecretLocation(params, patch)}`;
  return { location, update, href };
}

/**
 * The search box: `text` filters the table on every keystroke and reaches the URL (`?q=`) once
 * typing pauses, replacing the entry rather than adding one per word. Back and forward change
 * the URL, and the box follows; the URL catching up with this hook's own write does not, as
 * the box may hold more typed since (the router applies a new URL in a transition, which a
 * keystroke can overtake).
 */
export function useSecretSearch(urlText: string) {
  const [, setParams] = useSearchParams();
  const [text, setText] = useState(urlText);
  const [seen, setSeen] = useState(urlText);
  const [written, setWritten] = useState(urlText);

  // The URL's text changed (navigation, or this hook's own write): the box shows it, unless it
  // is the text this hook wrote.
  if (urlText !== seen) {
    setSeen(urlText);
    if (urlText !== written && urlText !== text) setText(urlText);
  }

  useEffect(() => {
    if (text === urlText) return;
    const timer = setTimeout(() => {
      setWritten(text);
      setParams((current) => writeSecretLocation(current, { search: text }), { replace: true });
    }, URL_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, urlText, setParams]);

  return { text, setText };
}
