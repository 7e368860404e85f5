import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import { chromium, type Page } from "playwright-core";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { ensureDebianPackages } from "../lib/system.ts";
import { signIn, startBff } from "./bff-hop.ts";
import { CHROME_FLAGS, CHROMIUM, distDir, ensureWebBuild } from "./console.ts";
import { call } from "./secrets-list.ts";

/** The overview is measured on a folder of this many keys in each of the project's three environments. */
const KEY_COUNT = 1_000;
const ENVIRONMENTS = ["dev", "staging", "prod"] as const;
const LOAD_ROUNDS = 5;
const SCROLL_ROUNDS = 3;
/** Pixels scrolled per frame: ten rows of the overview (56 px each). */
const SCROLL_STEP = 560;

const count = new Intl.NumberFormat("en");
/** When set, the profiled scrolls' CPU profiles are written there, to see where frames go. */
const profileDir = process.env.KEYHOLD_BENCH_PROFILE_DIR;

/**
 * A project whose three environments hold KEY_COUNT keys each at the root, seeded through the
 * batch endpoint in chunks: every fifth key's value differs by environment, every seventh is
 * missing in prod.
 */
async function seedOverview(service: RunningService): Promise<string> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, {
      projectName: "Bench overview",
      slug: "bench-overview",
    }),
  );
  const projectId = created.project.id;
  const shared = Array.from({ length: KEY_COUNT }, () => randomBytes(24).toString("base64url"));
  for (const environment of ENVIRONMENTS) {
    const secrets = shared.flatMap((value, n) => {
      if (environment === "prod" && n % 7 === 3) return [];
      const secretValue = n % 5 === 0 ? `${environment}-${value}` : value;
      return [{ secretKey: `SERVICE_${String(n).padStart(4, "0")}_KEY`, secretValue }];
    });
    for (let start = 0; start < secrets.length; start += 250) {
      await call(service, "POST", endpoints["secrets.batchCreate"].path, {
        workspaceId: projectId,
        environment,
        secretPath: "/",
        secrets: secrets.slice(start, start + 250),
      });
    }
  }
  return projectId;
}

/**
 * Runs in the page: resolves, just after the frame that first shows the whole table (the status
 * line counting every key, and no column still loading), with that time since navigation start,
 * and the first contentful paint. Source text: the TypeScript loader would wrap inner names.
 */
const waitForTable = (status: string) => `new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error("the overview did not show ${status} within 30 s")), 30000);
  const ready = () => {
    const section = document.querySelector('section[aria-label="Keys across environments"]');
    const table = section?.querySelector('table[aria-label="Secrets across environments"]');
    return section?.querySelector('[role="status"]')?.textContent === ${JSON.stringify(status)}
      && table && !table.querySelector("thead")?.textContent?.includes("Loading")
      && table.querySelectorAll("tbody tr[aria-rowindex]").length > 5;
  };
  const check = () => {
    if (!ready()) return requestAnimationFrame(check);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve({
      table: performance.now(),
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    });
    channel.port2.postMessage(null);
  };
  requestAnimationFrame(check);
})`;

/**
 * Runs in the page: scrolls the table from top to bottom SCROLL_STEP pixels per frame, and
 * resolves with each frame's interval (from one animation frame to the next, the scroll and
 * the rows it brings rendered in between).
 */
const scrollThrough = (table: string) => `new Promise((resolve) => {
  const frame = document.querySelector('table[aria-label="${table}"]').parentElement;
  frame.scrollTop = 0;
  const intervals = [];
  let last = 0;
  const step = (now) => {
    if (last) intervals.push(now - last);
    last = now;
    if (frame.scrollTop + frame.clientHeight >= frame.scrollHeight - 1) return resolve(intervals);
    frame.scrollTop += ${SCROLL_STEP};
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

async function loadOnce(page: Page, url: string, status: string): Promise<{ table: number; fcp: number }> {
  await page.goto(url, { waitUntil: "commit" });
  return page.evaluate<{ table: number; fcp: number }>(waitForTable(status));
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
};

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The main thread's busy time in a CPU profile, in ms: every sample but the idle ones. */
function busyMs(profile: CpuProfile): number {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id));
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) busy += profile.timeDeltas[i] ?? 0;
  });
  return busy / 1000;
}

/**
 * One scroll through a table under Chromium's CPU profiler: the main thread's busy time per frame
 * (script, style, layout, paint), which other work on the machine disturbs far less than the
 * frames' wall-clock intervals. The profile is written to `profileDir` when set.
 */
async function profiledScroll(page: Page, table: string, name: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const intervals = await page.evaluate<number[]>(scrollThrough(table));
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
  await cdp.detach();
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(path.join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return busyMs(profile) / intervals.length;
}

export const secretsOverviewCase: BenchCase = {
  id: "secrets-overview",
  title: `In Chromium: the secrets overview of ${count.format(KEY_COUNT)} keys × 3 environments, load and scroll`,
  async run(context: BenchContext): Promise<ResultRow[]> {
    ensureDebianPackages({ [CHROMIUM]: "chromium" });
    ensureWebBuild();
    const service = await startService(context, { postgres: false });
    console.error(`  seeding ${KEY_COUNT} keys × ${ENVIRONMENTS.length} environments through the batch API…`);
    const projectId = await seedOverview(service);
    const bffUrl = await startBff(context, service.url, undefined, { KEYHOLD_WEB_DIST: distDir });
    const cookie = await signIn(bffUrl, service);
    const [name, value] = cookie.split("=") as [string, string];
    const url = `${bffUrl}/projects/${projectId}/overview`;
    const status = `${count.format(KEY_COUNT)} keys, ${count.format(Math.ceil(KEY_COUNT / 7))} missing somewhere`;

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });
    const loads: { table: number; fcp: number }[] = [];
    const frames: number[] = [];
    const tableFrames: number[] = [];
    const overviewBusy: number[] = [];
    const tableBusy: number[] = [];
    try {
      const browserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await browserContext.addCookies([{ name, value, domain: "127.0.0.1", path: "/", secure: true, httpOnly: true }]);
      // A first visit fills the HTTP cache with the console's code, as any later visit finds it.
      await loadOnce(await browserContext.newPage(), url, status);
      for (let round = 1; round <= LOAD_ROUNDS; round++) {
        const page = await browserContext.newPage();
        const load = await loadOnce(page, url, status);
        loads.push(load);
        console.error(
          `  load ${round}: first paint ${load.fcp.toFixed(0)} ms, whole table ${load.table.toFixed(0)} ms`,
        );
        if (round <= SCROLL_ROUNDS) {
          const intervals = await page.evaluate<number[]>(scrollThrough("Secrets across environments"));
          frames.push(...intervals);
          overviewBusy.push(await profiledScroll(page, "Secrets across environments", `overview-scroll-${round}`));
          console.error(
            `  scroll ${round}: ${intervals.length} frames, p50 ${median(intervals).toFixed(1)} ms, p95 ${percentile(intervals, 0.95).toFixed(1)} ms; main thread ${overviewBusy.at(-1)?.toFixed(1)} ms per frame`,
          );
        }
        await page.close();
      }
      // The reference: the same scroll through the secrets table of dev's 1,000 keys (one environment).
      const page = await browserContext.newPage();
      await page.goto(`${bffUrl}/projects/${projectId}/secrets?env=dev`);
      await page.getByText(`${count.format(KEY_COUNT)} secrets`, { exact: true }).waitFor({ timeout: 60_000 });
      for (let round = 1; round <= SCROLL_ROUNDS; round++) {
        const intervals = await page.evaluate<number[]>(scrollThrough("Secrets"));
        tableFrames.push(...intervals);
        tableBusy.push(await profiledScroll(page, "Secrets", `secrets-table-scroll-${round}`));
        console.error(
          `  secrets table scroll ${round}: p50 ${median(intervals).toFixed(1)} ms, p95 ${percentile(intervals, 0.95).toFixed(1)} ms; main thread ${tableBusy.at(-1)?.toFixed(1)} ms per frame`,
        );
      }
    } finally {
      await browser.close();
    }
    const label = `overview: ${count.format(KEY_COUNT)} keys × 3 environments`;
    return [
      {
        case: label,
        metric: "first contentful paint ms",
        keyhold: median(loads.map((load) => load.fcp)),
        higherIsBetter: false,
      },
      {
        case: label,
        metric: "navigation to whole table painted ms",
        keyhold: median(loads.map((load) => load.table)),
        higherIsBetter: false,
      },
      {
        case: label,
        metric: "scroll: main-thread CPU per frame ms",
        keyhold: median(overviewBusy),
        reference: median(tableBusy),
        referenceName: "secrets table, 1 environment",
        higherIsBetter: false,
      },
      {
        case: label,
        metric: "scroll frame p50 ms",
        keyhold: median(frames),
        reference: median(tableFrames),
        referenceName: "secrets table, 1 environment",
        higherIsBetter: false,
      },
      {
        case: label,
        metric: "scroll frame p95 ms",
        keyhold: percentile(frames, 0.95),
        reference: percentile(tableFrames, 0.95),
        referenceName: "secrets table, 1 environment",
        higherIsBetter: false,
      },
    ];
  },
};
