import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type BodyOf, bffPaths, CSRF_HEADER, CSRF_VALUE, endpoints } from "@keyhold/contract";
import { consoleRoutes, KB, measureRouteJs, SIGN_IN_BUDGET_BYTES } from "@keyhold/web/route-js";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
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
/** The acceptance targets of issue 6, shown as the reference column. */
const PERFORMANCE_TARGET = 0.9;

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
  const sources = ["src", "public", "tooling", "index.html", "vite.config.ts", "package.json"].map((p) =>
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
  return { baseUrl, sessionCookie: cookie };
}

interface LighthouseFigures {
  performance: number;
  lcpMs: number;
}

/** One Lighthouse run (default mobile settings: simulated throttling) in a fresh Chromium. */
async function runLighthouse(url: string, headers: Record<string, string>): Promise<LighthouseFigures> {
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
    if (!lhr || lhr.runtimeError || typeof performance !== "number" || typeof lcpMs !== "number") {
      throw new Error(`Lighthouse could not measure ${url}: ${lhr?.runtimeError?.message ?? "no score"}`);
    }
    // A page that did not render what it should would still get a score; refuse it.
    const finalUrl = lhr.finalDisplayedUrl;
    if (new URL(finalUrl).pathname !== new URL(url).pathname) {
      throw new Error(`Lighthouse ended on ${finalUrl} instead of ${url}`);
    }
    return { performance, lcpMs };
  } finally {
    chrome.kill();
  }
}

export const consoleCase: BenchCase = {
  id: "console",
  title: "console first load: JavaScript before render, Lighthouse (mobile) on sign-in and identities",
  async run(context) {
    ensureDebianPackages({ [CHROMIUM]: "chromium" });
    ensureWebBuild();
    const [signInJs, identitiesJs] = await Promise.all([
      measureRouteJs(distDir, consoleRoutes["sign-in"]),
      measureRouteJs(distDir, consoleRoutes.identities),
    ]);

    const stack = await startStack(context);
    const pages = [
      { name: "sign-in", url: `${stack.baseUrl}${consoleRoutes["sign-in"].path}`, headers: {} },
      {
        name: "identities",
        url: `${stack.baseUrl}${consoleRoutes.identities.path}`,
        headers: { Cookie: stack.sessionCookie },
      },
    ] as const;
    const figures: Record<string, LighthouseFigures[]> = { "sign-in": [], identities: [] };
    // Alternating rounds, so drift on the machine hits both pages alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const page of pages) {
        const run = await runLighthouse(page.url, page.headers);
        figures[page.name]?.push(run);
        console.error(`  ${page.name} round ${round}: performance ${run.performance}, LCP ${Math.round(run.lcpMs)} ms`);
      }
    }

    const rows = (name: string, jsBytes: number, jsBudget: number | undefined): ResultRow[] => {
      const runs = figures[name] ?? [];
      return [
        {
          case: `console: ${name}`,
          metric: "JS gzip KB",
          keyhold: jsBytes / KB,
          ...(jsBudget !== undefined && { reference: jsBudget / KB, referenceName: "budget" }),
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
      ];
    };
    return [
      ...rows("sign-in", signInJs.gzipBytes, SIGN_IN_BUDGET_BYTES),
      ...rows("identities", identitiesJs.gzipBytes, undefined),
    ];
  },
};
