/**
 * Accepts a return path only when it stays on this origin: it must start with a single
 * "/" and resolve to the same origin. Anything else falls back to `fallback`.
 */
export function safeReturnPath(candidate: string | null | undefined, fallback: string): string {
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) {
    return fallback;
  }
  // Control characters and backslashes are normalised away by URL parsers in surprising ways.
  for (const char of candidate) {
    if (char === "\\" || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) return fallback;
  }
  const base = "https://keyhold.invalid";
  let url: URL;
  try {
    url = new URL(candidate, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
