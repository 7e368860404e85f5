/* global window, document */
// Applies the saved theme preference before the app loads, so the page never flashes the wrong theme.
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
