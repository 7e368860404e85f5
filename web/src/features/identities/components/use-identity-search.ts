import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { readIdentitySearch, searchTextProblem, writeIdentitySearch } from "../identity-search";

/** How long typing pauses before the search runs. */
const DEBOUNCE_MS = 300;

/**
 * The identities list's search, kept in the URL: `search` is what the URL asks for (and what is
 * fetched); `text` is the search box, which reaches the URL once typing pauses, back on page 1.
 * Back and forward change the URL, and the box follows.
 */
export function useIdentitySearch() {
  const [params, setParams] = useSearchParams();
  const search = readIdentitySearch(params);
  const [text, setText] = useState(search.text);
  const [seen, setSeen] = useState(search.text);

  // The URL's text changed (navigation, or this hook's own write): the box shows it.
  if (search.text !== seen) {
    setSeen(search.text);
    if (search.text !== text.trim()) setText(search.text);
  }

  const urlText = search.text;
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === urlText || searchTextProblem(text)) return;
    const timer = setTimeout(
      () => setParams((current) => writeIdentitySearch(current, { text: wanted, page: 1 }), { replace: true }),
      DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, urlText, setParams]);

  return {
    search,
    text,
    setText,
    /** Why the service would refuse the box's text; the list keeps the last good search meanwhile. */
    problem: searchTextProblem(text),
    pageHref: (page: number) => `?${writeIdentitySearch(params, { ...search, page })}`,
  };
}
