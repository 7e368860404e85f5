/* global window, document */
// Runs before the app's code, which is still downloading: what cannot wait for it.

// zod compiles its parsers with `new Function` when it may; the Content-Security-Policy forbids
// eval, so say so before zod loads (it reads this global then). Otherwise its first schema
// probes with a `Function("")` that the browser refuses and reports as a policy violation.
window.__zod_globalConfig = { jitless: true };

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

// On the sign-in page, the ways to sign in (and why a single sign-on just failed) are needed for
// its first screen: ask for them now as well. src/features/auth/api.ts takes this answer (once).
(function () {
  if (typeof window.fetch !== "function" || window.location.pathname !== "/sign-in") return;
  var options = window.fetch("/bff/sign-in-options", {
    headers: { "x-csrf": "1", accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
  });
  options.catch(function () {});
  window.keyholdSignInOptions = options;
})();

// Preloads the code of the page being opened, beside the app's own, when index.html lists it
// for this address (written by the build: web/tooling/route-preloads.ts); the router would
// otherwise ask for it only once the app has started.
(function () {
  var data = document.getElementById("route-preloads");
  if (!data) return;
  var segments = window.location.pathname.split("/").filter(Boolean);
  var routes = JSON.parse(data.textContent || "[]");
  for (var i = 0; i < routes.length; i++) {
    var pattern = routes[i].path.split("/").filter(Boolean);
    var matches =
      pattern.length === segments.length &&
      pattern.every(function (part, index) {
        return part.charAt(0) === ":" || part === segments[index];
      });
    if (!matches) continue;
    routes[i].files.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
    return;
  }
})();
