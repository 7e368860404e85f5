/* global window, document */
// Runs before the app's code, which is still downloading: the two things that cannot wait for it.

// Applies the saved theme preference, so the page never flashes the wrong theme.
// Mirrors src/lib/theme.ts; only the preference ("light" | "dark" | "system") is stored.
(function () {
  var preference = "system";
  try {
    var saved = window.localStorage.getItem("keyhold.theme");
    if (saved === "light" || saved === "dark" || saved === "system") preference = saved;
  } catch {
    // Storage can be unavailable (privacy modes); the system theme is a fine fallback.
  }
  var dark =
    preference === "dark" || (preference === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
})();

// Starts the session check now, beside the download of the app's code rather than after it:
// every page's first step waits for it. src/lib/session.ts takes this answer (once) instead of
// asking again, and validates it like any other.
(function () {
  if (typeof window.fetch !== "function") return;
  var check = window.fetch("/bff/session", {
    headers: { "x-csrf": "1", accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
  });
  // A failure is the app's to report, when it takes the answer; not an unhandled rejection here.
  check.catch(function () {});
  window.keyholdSessionCheck = check;
})();
