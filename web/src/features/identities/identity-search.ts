import type { SearchIdentitiesBody } from "./api";

/** Rows per page of the identities list. */
export const IDENTITY_PAGE_SIZE = 20;

/** What the identities list shows, as kept in its URL (`?q=ci&page=2`). */
export interface IdentitySearch {
  /** Part of a name; "" for every identity. */
  text: string;
  /** 1-based. */
  page: number;
}

const ALLOWED = /^[\w\s\-/]*$/;
const MAX_LENGTH = 255;

/** Why the service would refuse this search text, in one sentence; undefined when it is fine. */
export function searchTextProblem(text: string): string | undefined {
  if (text.trim().length > MAX_LENGTH) return `Search text is limited to ${MAX_LENGTH} characters.`;
  if (!ALLOWED.test(text)) return "Search by letters, digits, spaces, _, - and / only.";
  return undefined;
}

/** The search a URL asks for; a page or text the service would refuse reads as the default. */
export function readIdentitySearch(params: URLSearchParams): IdentitySearch {
  const raw = (params.get("q") ?? "").trim();
  const page = Number(params.get("page") ?? "1");
  return {
    text: searchTextProblem(raw) ? "" : raw,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL's search params for a search, leaving out defaults and keeping unrelated params. */
export function writeIdentitySearch(params: URLSearchParams, search: IdentitySearch): URLSearchParams {
  const next = new URLSearchParams(params);
  if (search.text) next.set("q", search.text);
  else next.delete("q");
  if (search.page > 1) next.set("page", String(search.page));
  else next.delete("page");
  return next;
}

export function toSearchBody({ text, page }: IdentitySearch): SearchIdentitiesBody {
  return {
    limit: IDENTITY_PAGE_SIZE,
    offset: (page - 1) * IDENTITY_PAGE_SIZE,
    orderBy: "name",
    orderDirection: "asc",
    ...(text && { search: { name: { $contains: text } } }),
  };
}

/** "21–40 of 57" for a page of rows. */
export function pageRange(search: IdentitySearch, rows: number, totalCount: number): string {
  if (rows === 0) return `0 of ${totalCount}`;
  const first = (search.page - 1) * IDENTITY_PAGE_SIZE + 1;
  return `${first}–${first + rows - 1} of ${totalCount}`;
}
