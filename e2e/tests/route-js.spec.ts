import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Project } from "@keyhold/contract";
import type { Browser } from "@playwright/test";
import {
  type ConsoleRouteId,
  consoleRoutes,
  type Manifest,
  routeScriptFiles,
  type ScriptRequest,
  scriptRounds,
  scriptsOfHtml,
} from "@keyhold/web/route-js";
import { csrf, expect, test } from "../support/fixtures.ts";
import { seedSecret } from "../support/secrets.ts";

/**
 * What a browser downloads on a cold load of each page of the console, against what the build's
 * JavaScript budget counts for it (web/tooling/route-js.ts): the same files, no more and no fewer.
 * And everything a page needs before its first paint is requested in one round, by index.html
 * itself: its entry and the entry's modulepreloads by the parser, and the route's chunks by its
 * inline boot script (web/boot.js), which the parser runs before any script has arrived.
 */

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as Manifest;
const indexHtml = readFileSync(path.join(dist, "index.html"), "utf8");

interface ColdLoad {
  requests: (ScriptRequest & { initiator: string })[];
  /** Console errors and Content-Security-Policy reports. */
  errors: string[];
}

/** Opens `url` in a new browser context (empty cache), signed in unless told otherwise, until the network is idle. */
async function coldLoad(
  browser: Browser,
  url: string,
  options: { adminToken?: string; ready: (page: import("@playwright/test").Page) => Promise<void> },
): Promise<ColdLoad> {
  const context = await browser.newContext({ baseURL: process.env.KEYHOLD_E2E_BASE_URL });
  try {
    if (options.adminToken) {
      const login = await context.request.post("/bff/login", {
        headers: csrf,
        data: { accessToken: options.adminToken },
      });
      expect(login.status()).toBe(200);
    }
    const page = await context.newPage();
    // Every refusal of the Content-Security-Policy, reported or not in the console (an eval
    // probe caught by the code that tried it shows up only here).
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(
          `Content Security Policy refused ${event.blockedURI} (${event.violatedDirective}) at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        ),
      );
    });
    const errors: string[] = [];
    page.on("console", (message) => {
      // A signed-out visitor's session check is answered 401, which the browser reports.
      const signedOutCheck = !options.adminToken && message.location().url.endsWith("/bff/session");
      if ((message.type() === "error" && !signedOutCheck) || /Content Security Policy/i.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const cdp = await context.newCDPSession(page);
    const sent = new Map<string, { file: string; sentAt: number; initiator: string }>();
    const requests: ColdLoad["requests"] = [];
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.type !== "Script") return;
      const { pathname, origin } = new URL(event.request.url);
      if (origin !== new URL(process.env.KEYHOLD_E2E_BASE_URL ?? "").origin) return;
      sent.set(event.requestId, { file: pathname.slice(1), sentAt: event.timestamp, initiator: event.initiator.type });
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = sent.get(event.requestId);
      if (request) requests.push({ ...request, finishedAt: event.timestamp });
    });
    const failed: string[] = [];
    cdp.on("Network.loadingFailed", (event) => {
      const request = sent.get(event.requestId);
      if (request) failed.push(`${request.file} failed to load: ${event.errorText}`);
    });
    await cdp.send("Network.enable");
    await page.goto(url, { waitUntil: "networkidle" });
    await options.ready(page);
    // Scripts still arriving after the page is ready (the menus' code, loaded after the first paint).
    await page.waitForLoadState("networkidle");
    await expect.poll(() => requests.length + failed.length, { message: "every script request ended" }).toBe(sent.size);
    expect(failed, "script requests that failed").toEqual([]);
    return { requests, errors };
  } finally {
    await context.close();
  }
}

/** The chunks the boot script preloads for a path, as index.html lists them (web/tooling/route-preloads.ts). */
function bootPreloads(pathname: string): string[] {
  const data = /<script type="application\/json" id="route-preloads">(.*?)<\/script>/s.exec(indexHtml)?.[1];
  if (!data) throw new Error("index.html has no route preloads");
  const table = JSON.parse(data) as { path: string; files: string[] }[];
  const segments = pathname.split("/").filter(Boolean);
  const match = table.find(({ path: pattern }) => {
    const parts = pattern.split("/").filter(Boolean);
    return parts.length === segments.length && parts.every((part, i) => part.startsWith(":") || part === segments[i]);
  });
  return (match?.files ?? []).map((file) => file.slice(1));
}

function expectLoadedAsCounted(id: ConsoleRouteId, url: string, load: ColdLoad) {
  const route = consoleRoutes[id];
  const files = load.requests.map((r) => r.file);
  expect(files.length, `${id}: no script is downloaded twice`).toBe(new Set(files).size);
  expect([...files].sort(), `${id}: the scripts the browser downloads are the ones the budget counts`).toEqual(
    routeScriptFiles(manifest, indexHtml, route),
  );

  // What index.html names (the entry and its modulepreloads), requested by the parser, and what
  // its inline boot script preloads for this address as the parser runs it: one round.
  const named = scriptsOfHtml(indexHtml);
  for (const file of named) {
    expect(load.requests.find((r) => r.file === file)?.initiator, `${id}: ${file} requested by the parser`).toBe(
      "parser",
    );
  }
  const preloaded = bootPreloads(new URL(url, "http://console").pathname);
  for (const file of preloaded) {
    expect(load.requests.find((r) => r.file === file)?.initiator, `${id}: ${file} requested by a script`).toBe(
      "script",
    );
  }
  const beforePaint = routeScriptFiles(manifest, indexHtml, { ...route, afterPaintModules: [] });
  const later = beforePaint.filter((file) => !named.includes(file) && !preloaded.includes(file));
  expect(later, `${id}: scripts needed before the first paint that index.html does not request`).toEqual([]);
  expect(preloaded.length > 0, `${id}: the boot script preloads the route's chunks`).toBe(id !== "sign-in");
  expect(indexHtml, "the boot script is inline, not a file to fetch first").not.toContain('src="/boot.js"');

  // The same from the timings: each script's round is at most one more than that of the
  // scripts that had arrived when it was sent (an upper bound of its chain of requests).
  const rounds = scriptRounds(load.requests);
  test.info().annotations.push({
    type: `${id} rounds`,
    description: String(Math.max(...beforePaint.map((file) => rounds.get(file) ?? 0))),
  });
  expect(load.errors, `${id}: console errors`).toEqual([]);
}

const heading = (name: string) => async (page: import("@playwright/test").Page) => {
  await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
};

test("the sign-in page downloads what its budget counts, in one round", async ({ browser }) => {
  const load = await coldLoad(browser, "/sign-in", { ready: heading("Sign in to Keyhold") });
  expectLoadedAsCounted("sign-in", "/sign-in", load);
});

test("the organisation's pages download what their budgets count, in one round", async ({
  browser,
  adminToken,
  seededIdentity,
}) => {
  const pages: [ConsoleRouteId, string, string][] = [
    ["identities", "/identities", "Identities"],
    ["identity", `/identities/${seededIdentity.identity.id}`, seededIdentity.identity.name],
    ["identity-edit", `/identities/${seededIdentity.identity.id}/edit`, seededIdentity.identity.name],
    ["org-settings", "/settings", "Organization settings"],
    ["sso-setup", "/settings/sign-in", "Single sign-on"],
    ["sso-test", "/sso-test", "Single sign-on test"],
    ["projects", "/projects", "Projects"],
    ["auditLog", "/audit-log", "Audit log"],
  ];
  for (const [id, url, title] of pages) {
    const load = await coldLoad(browser, url, { adminToken, ready: heading(title) });
    expectLoadedAsCounted(id, url, load);
  }
});

test("a project's pages download what their budgets count, in one round", async ({
  browser,
  adminToken,
  service,
  seededProject,
}) => {
  await seedSecret(service, seededProject, { key: "DATABASE_URL", value: "postgres://db.internal/app" });
  const project = (p: Project, section = "") => `/projects/${p.id}${section}`;
  const pages: [ConsoleRouteId, string, string][] = [
    ["project", project(seededProject), seededProject.name],
    ["secrets", project(seededProject, "/secrets?env=dev"), "Secrets"],
    ["secret-imports", project(seededProject, "/secret-imports?env=dev"), "Secret imports"],
    ["roles", project(seededProject, "/roles"), "Roles"],
    ["role", project(seededProject, "/roles/admin"), "Admin"],
    ["access", project(seededProject, "/access"), "Access"],
    ["integrations", project(seededProject, "/integrations"), "Integrations"],
  ];
  for (const [id, url, title] of pages) {
    const load = await coldLoad(browser, url, { adminToken, ready: heading(title) });
    expectLoadedAsCounted(id, url, load);
  }
});
