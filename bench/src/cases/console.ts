import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BodyOf, bffPaths, buildPath, CSRF_HEADER, CSRF_VALUE, endpoints } from "@keyhold/contract";
import {
  type ConsoleRoute,
  consoleRoutes,
  KB,
  type Manifest,
  measureRouteJs,
  routeScriptFiles,
  type ScriptRequest,
  scriptRounds,
} from "@keyhold/web/route-js";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { freePort, startNode, waitForUrl } from "../lib/processes.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { ensureDebianPackages, repoRoot } from "../lib/system.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const ROUNDS = 3;
/** Issue 17's aims, shown as the reference column. */
const PERFORMANCE_TARGET = 0.95;
const SCRIPT_ROUNDS_AIM = 2;
/** The secrets page is measured on a folder of this many secrets. */
const SECRET_COUNT = 1_000;
/** When set, each Lighthouse report is written there as JSON (for its LCP and TBT breakdowns). */
const reportDir = process.env.KEYHOLD_BENCH_LIGHTHOUSE_DIR;

const webDir = path.join(repoRoot, "web");
export const distDir = path.join(webDir, "dist");

/** The newest modification time under a path (files only), 0 when it does not exist. */
function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === "node_modules" || entry === "dist") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds the console when web/dist is missing or older than anything it is built from. */
export function ensureWebBuild(): void {
  const manifest = path.join(distDir, ".vite", "manifest.json");
  const builtAt = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const sources = ["src", "public", "tooling", "boot.js", "index.html", "vite.config.ts", "package.json"].map((p) =>
    newestMtime(path.join(webDir, p)),
  );
  const newestSource = Math.max(...sources, newestMtime(path.join(repoRoot, "contract", "src")));
  if (builtAt > newestSource) return;
  console.error(
    builtAt === 0 ? "  building the console (no web/dist)" : "  rebuilding the console (web/dist is stale)",
  );
  execFileSync("pnpm", ["--filter", "@keyhold/web", "build"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

interface Stack {
  baseUrl: string;
  /** The `Cookie` header of a signed-in admin session. */
  sessionCookie: string;
  /** A project whose dev environment holds SECRET_COUNT secrets at its root. */
  projectId: string;
}

/** A project with SECRET_COUNT secrets in dev, created through the service's API (as secrets-list seeds). */
async function seedSecrets(serviceUrl: string, adminToken: string): Promise<string> {
  const call = async (url: string, body: unknown) => {
    const response = await fetch(`${serviceUrl}${url}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`seeding ${url} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const created = endpoints["projects.create"].response.parse(
    await call(endpoints["projects.create"].path, { projectName: "Bench secrets", slug: "bench-secrets" }),
  );
  const projectId = created.project.id;
  let next = 0;
  const worker = async () => {
    while (next < SECRET_COUNT) {
      const n = next++;
      await call(
        buildPath(endpoints["secrets.create"].path, { secretName: `SERVICE_${String(n).padStart(5, "0")}_KEY` }),
        {
          workspaceId: projectId,
          environment: "dev",
          secretPath: "/",
          secretValue: randomBytes(24).toString("base64url"),
          ...(n % 10 === 0 && { secretComment: `rotated by the platform team, batch ${n}` }),
        },
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return projectId;
}

/** The real service and BFF on free ports, the BFF serving web/dist, signed in as the admin. */
async function startStack(context: BenchContext): Promise<Stack> {
  const [servicePort, bffPort] = await Promise.all([freePort(), freePort()]);
  const dataDir = path.join(context.scratchDir, `console-${servicePort}`);
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const service = context.processes.add(
    startNode("service", "service/src/server.ts", {
      PORT: String(servicePort),
      HOST: "127.0.0.1",
      KEYHOLD_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    }),
  );
  await waitForUrl(`${serviceUrl}/api/status`, service);

  const baseUrl = `http://127.0.0.1:${bffPort}`;
  const bff = context.processes.add(
    startNode("bff", "bff/src/server.ts", {
      PORT: String(bffPort),
      HOST: "127.0.0.1",
      KEYHOLD_UPSTREAM_URL: serviceUrl,
      KEYHOLD_LOGIN_RATE_LIMIT: "1000",
      KEYHOLD_WEB_DIST: distDir,
      LOG_LEVEL: "warn",
    }),
  );
  await waitForUrl(`${baseUrl}/healthz`, bff);

  const adminToken = readFileSync(path.join(dataDir, "admin-token"), "utf8").trim();
  const login = await fetch(`${baseUrl}${bffPaths.login}`, {
    method: "POST",
    headers: { [CSRF_HEADER]: CSRF_VALUE, "content-type": "application/json" },
    body: JSON.stringify({ accessToken: adminToken }),
  });
  const session = (await login.json()) as { organization?: { id: string } };
  const cookie = login.headers.getSetCookie()[0]?.split(";")[0];
  if (!login.ok || !cookie || !session.organization) throw new Error(`sign-in failed: ${login.status}`);

  // A list worth rendering: a dozen identities besides the admin.
  for (let i = 1; i <= 12; i++) {
    const body: BodyOf<(typeof endpoints)["identities.create"]> = {
      name: `bench-identity-${String(i).padStart(2, "0")}`,
      organizationId: session.organization.id,
      role: i % 3 === 0 ? "admin" : "member",
      hasDeleteProtection: i % 4 === 0,
    };
    const created = await fetch(`${serviceUrl}${endpoints["identities.create"].path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!created.ok) throw new Error(`seeding identities failed: ${created.status} ${await created.text()}`);
  }
  console.error(`  seeding ${SECRET_COUNT} secrets through the API…`);
  const projectId = await seedSecrets(serviceUrl, adminToken);
  return { baseUrl, sessionCookie: cookie, projectId };
}

interface LighthouseFigures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
}

/** One Lighthouse run (default mobile settings: simulated throttling) in a fresh Chromium. */
async function lighthouseOnce(
  url: string,
  headers: Record<string, string>,
  report: string,
): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: "error",
      output: "json",
      onlyCategories: ["performance"],
      extraHeaders: headers,
    });
    const lhr = result?.lhr;
    const performance = lhr?.categories.performance?.score;
    const lcpMs = lhr?.audits["largest-contentful-paint"]?.numericValue;
    const tbtMs = lhr?.audits["total-blocking-time"]?.numericValue;
    if (
      !lhr ||
      lhr.runtimeError ||
      typeof performance !== "number" ||
      typeof lcpMs !== "number" ||
      typeof tbtMs !== "number"
    ) {
      throw new Error(`Lighthouse could not measure ${url}: ${lhr?.runtimeError?.message ?? "no score"}`);
    }
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(path.join(reportDir, `${report}.json`), JSON.stringify(lhr));
    }
    // A page that did not render what it should would still get a score; refuse it.
    const finalUrl = lhr.finalDisplayedUrl;
    if (new URL(finalUrl).pathname !== new URL(url).pathname) {
      throw new Error(`Lighthouse ended on ${finalUrl} instead of ${url}`);
    }
    return { performance, lcpMs, tbtMs };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse, run again when it fails to record the page (NO_NAVSTART and the like, on a busy machine). */
async function runLighthouse(url: string, headers: Record<string, string>, report: string): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, headers, report);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`  ${error instanceof Error ? error.message : String(error)}; once more`);
    }
  }
}

/**
 * The rounds of script requests a cold load of `url` needs before the route's first paint: each
 * script's round is one more than that of the latest scripts that had arrived when it was sent
 * (an upper bound: e2e/tests/route-js.spec.ts checks the structure itself).
 */
async function scriptRoundsOf(url: string, route: ConsoleRoute, cookie: string | undefined): Promise<number> {
  const manifest = JSON.parse(readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  const beforePaint = routeScriptFiles(manifest, html, { ...route, afterPaintModules: [] });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });
  try {
    const context = await browser.newContext();
    if (cookie) {
      const [name, value] = cookie.split("=") as [string, string];
      await context.addCookies([{ name, value, domain: "127.0.0.1", path: "/", secure: true, httpOnly: true }]);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const sent = new Map<string, Omit<ScriptRequest, "finishedAt">>();
    const requests: ScriptRequest[] = [];
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.type === "Script") {
        sent.set(event.requestId, { file: new URL(event.request.url).pathname.slice(1), sentAt: event.timestamp });
      }
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = sent.get(event.requestId);
      if (request) requests.push({ ...request, finishedAt: event.timestamp });
    });
    await cdp.send("Network.enable");
    await page.goto(url, { waitUntil: "networkidle" });
    const rounds = scriptRounds(requests);
    const missing = beforePaint.filter((file) => !rounds.has(file));
    if (missing.length > 0) throw new Error(`${url} did not download ${missing.join(", ")}`);
    return Math.max(...beforePaint.map((file) => rounds.get(file) ?? 0));
  } finally {
    await browser.close();
  }
}

export const consoleCase: BenchCase = {
  id: "console",
  title: `console first load: JavaScript by route, script rounds and Lighthouse (mobile) on sign-in, identities and ${SECRET_COUNT.toLocaleString("en")} secrets`,
  async run(context) {
    ensureDebianPackages({ [CHROMIUM]: "chromium" });
    ensureWebBuild();
    const routeJs = await Promise.all(
      Object.values(consoleRoutes).map(async (route) => ({
        route,
        js: await measureRouteJs(distDir, route),
      })),
    );

    const stack = await startStack(context);
    const signedIn = { Cookie: stack.sessionCookie };
    const pages = [
      { name: "sign-in", route: consoleRoutes["sign-in"], url: `${stack.baseUrl}/sign-in`, headers: {} },
      { name: "identities", route: consoleRoutes.identities, url: `${stack.baseUrl}/identities`, headers: signedIn },
      {
        name: `secrets (${SECRET_COUNT.toLocaleString("en")})`,
        route: consoleRoutes.secrets,
        url: `${stack.baseUrl}/projects/${stack.projectId}/secrets?env=dev`,
        headers: signedIn,
      },
    ];
    const figures = new Map<string, LighthouseFigures[]>(pages.map((page) => [page.name, []]));
    // Alternating rounds, so drift on the machine hits every page alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const page of pages) {
        const report = `${page.name.replace(/\W+/g, "-")}-${round}`;
        const run = await runLighthouse(page.url, page.headers, report);
        figures.get(page.name)?.push(run);
        console.error(
          `  ${page.name} round ${round}: performance ${run.performance}, LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms`,
        );
      }
    }
    const rounds = new Map<string, number>();
    for (const page of pages) {
      rounds.set(
        page.name,
        await scriptRoundsOf(page.url, page.route, "Cookie" in page.headers ? stack.sessionCookie : undefined),
      );
    }

    const jsRows: ResultRow[] = routeJs.map(({ route, js }) => ({
      case: `console JS: ${route.path}`,
      metric: "gzip KB",
      keyhold: js.gzipBytes / KB,
      reference: route.budgetKB,
      referenceName: "budget",
      higherIsBetter: false,
    }));
    const pageRows = pages.flatMap(({ name }): ResultRow[] => {
      const runs = figures.get(name) ?? [];
      return [
        {
          case: `console: ${name}`,
          metric: "script rounds before paint",
          keyhold: rounds.get(name) ?? Number.NaN,
          reference: SCRIPT_ROUNDS_AIM,
          referenceName: "aim",
          higherIsBetter: false,
        },
        {
          case: `console: ${name}`,
          metric: "Lighthouse performance",
          keyhold: median(runs.map((r) => r.performance)),
          reference: PERFORMANCE_TARGET,
          referenceName: "target",
          higherIsBetter: true,
        },
        {
          case: `console: ${name}`,
          metric: "LCP ms",
          keyhold: median(runs.map((r) => r.lcpMs)),
          higherIsBetter: false,
        },
        {
          case: `console: ${name}`,
          metric: "TBT ms",
          keyhold: median(runs.map((r) => r.tbtMs)),
          higherIsBetter: false,
        },
      ];
    });
    return [...jsRows, ...pageRows];
  },
};
