import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { endpoints } from "@keyhold/contract";
import { parseDotenv } from "@keyhold/web/import-export/dotenv-file";
import { planImport } from "@keyhold/web/import-export/import-plan";
import { chromium, type Response } from "playwright-core";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { startService } from "../lib/stack.ts";
import { ensureDebianPackages } from "../lib/system.ts";
import { signIn, startBff } from "./bff-hop.ts";
import { CHROME_FLAGS, CHROMIUM, distDir, ensureWebBuild } from "./console.ts";
import { call } from "./secrets-list.ts";

/** The file's size in lines, and how the folder it is imported into is seeded. */
const LINES = 5_000;
/** Keys of the file that the folder already holds: half of them with the same value, half changed. */
const EXISTING = 2_500;
/** Measured rounds, each into a folder of its own, after one unmeasured round that warms the page and the service. */
const ROUNDS = 5;
const NODE_ROUNDS = 20;

const count = new Intl.NumberFormat("en");
/** Where to write a CPU profile of the page during each preview (`KEYHOLD_BENCH_PROFILE_DIR`), for finding what to speed up. */
const profileDir = process.env.KEYHOLD_BENCH_PROFILE_DIR;
const keyOf = (n: number) => `IMPORT_${String(n).padStart(5, "0")}_KEY`;

interface Round {
  secretPath: string;
  file: string;
  /** What the folder holds before the import. */
  seeded: { secretKey: string; secretValue: string; secretComment?: string }[];
  /** How many keys the file sets. */
  keys: number;
}

/**
 * A 5,000-line `.env`: every tenth key with a comment line above it, one value in ten quoted,
 * 2,500 keys the folder holds (1,250 unchanged, 1,250 changed) and the rest new.
 */
function roundData(round: number): Round {
  const lines: string[] = [];
  const seeded: Round["seeded"] = [];
  for (let n = 0; lines.length < LINES; n++) {
    const value = randomBytes(24).toString("base64url");
    const comment = n % 10 === 0 ? `owned by team ${n % 7}` : undefined;
    if (comment) lines.push(`# ${comment}`);
    lines.push(`${keyOf(n)}=${n % 10 === 3 ? `"${value} with spaces"` : value}`);
    const fileValue = n % 10 === 3 ? `${value} with spaces` : value;
    if (n < EXISTING) {
      seeded.push({
        secretKey: keyOf(n),
        secretValue: n % 2 === 0 ? fileValue : `old-${fileValue}`,
        ...(comment && { secretComment: comment }),
      });
    }
  }
  const keys = lines.filter((line) => !line.startsWith("#")).length;
  return { secretPath: `/round-${round}`, file: `${lines.join("\n")}\n`, seeded, keys };
}

async function seedRound(service: Awaited<ReturnType<typeof startService>>, projectId: string, data: Round) {
  const name = data.secretPath.slice(1);
  await call(service, "POST", endpoints["folders.create"].path, {
    workspaceId: projectId,
    environment: "dev",
    path: "/",
    name,
  });
  for (let start = 0; start < data.seeded.length; start += 500) {
    await call(service, "POST", endpoints["secrets.batchCreate"].path, {
      workspaceId: projectId,
      environment: "dev",
      secretPath: data.secretPath,
      secrets: data.seeded.slice(start, start + 500),
    });
  }
}

/** Parse and plan in Node, the same functions the dialog runs: the file's share of the preview. */
function nodeParseAndPlan(data: Round): number[] {
  const current = data.seeded.map(({ secretKey, secretValue, secretComment = "" }) => ({
    secretKey,
    secretValue,
    secretComment,
  }));
  const timings: number[] = [];
  for (let i = 0; i < NODE_ROUNDS; i++) {
    const start = performance.now();
    const plan = planImport(parseDotenv(data.file), current);
    timings.push(performance.now() - start);
    if (plan.counts.changed !== EXISTING / 2 || plan.counts.invalid !== 0) {
      throw new Error(`unexpected plan: ${JSON.stringify(plan.counts)}`);
    }
  }
  return timings;
}

async function responseTime(response: Response | null): Promise<number> {
  if (!response) throw new Error("the request got no answer");
  await response.finished();
  const timing = response.request().timing();
  return timing.responseEnd;
}

export const secretsImportCase: BenchCase = {
  id: "secrets-import",
  title: `In Chromium: import a ${count.format(LINES)}-line .env (parse + preview, then one upsert batch) into a folder of ${count.format(EXISTING)} secrets`,
  async run(context: BenchContext): Promise<ResultRow[]> {
    ensureDebianPackages({ [CHROMIUM]: "chromium" });
    ensureWebBuild();
    const service = await startService(context, { postgres: false });
    const { project } = endpoints["projects.create"].response.parse(
      await call(service, "POST", endpoints["projects.create"].path, { projectName: "Import bench", slug: "import" }),
    );
    const rounds = Array.from({ length: ROUNDS + 1 }, (_, i) => roundData(i));
    console.error(`  seeding ${ROUNDS + 1} folders of ${count.format(EXISTING)} secrets…`);
    for (const data of rounds) await seedRound(service, project.id, data);
    const nodeTimings = nodeParseAndPlan(rounds[0] as Round);
    console.error(`  parse + plan in Node: median ${median(nodeTimings).toFixed(1)} ms`);

    const bffUrl = await startBff(context, service.url, undefined, { KEYHOLD_WEB_DIST: distDir });
    const cookie = await signIn(bffUrl, service);
    const [name, value] = cookie.split("=") as [string, string];
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });
    const preview: number[] = [];
    const batch: number[] = [];
    // The requests' own share: from sending to the whole answer received, as the browser timed them.
    const listCall: number[] = [];
    const batchCall: number[] = [];
    // The new keys and the changed half of the existing ones.
    const writes = (rounds[0] as Round).keys - EXISTING / 2;
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.context().addCookies([{ name, value, domain: "127.0.0.1", path: "/", secure: true, httpOnly: true }]);
      for (const data of rounds) {
        await page.goto(`${bffUrl}/projects/${project.id}/secrets?env=dev&path=${encodeURIComponent(data.secretPath)}`);
        await page.getByText(`${count.format(EXISTING)} secrets`, { exact: true }).waitFor({ timeout: 60_000 });
        await page.getByRole("button", { name: "Import", exact: true }).click();
        const dialog = page.getByRole("dialog", { name: "Import secrets" });
        await dialog
          .getByLabel("File to import")
          .setInputFiles({ name: "big.env", mimeType: "text/plain", buffer: Buffer.from(data.file) });
        await dialog.getByText("big.env").waitFor();

        // From the click on Preview to the painted preview: parse, one list call with values, compare, render.
        const listed = page.waitForResponse(
          (response) =>
            response.url().includes("/api/v3/secrets/raw?") && response.url().includes("viewSecretValue=true"),
        );
        const profiler = profileDir ? await page.context().newCDPSession(page) : undefined;
        await profiler?.send("Profiler.enable");
        await profiler?.send("Profiler.start");
        let start = Date.now();
        await dialog.getByRole("button", { name: "Preview" }).click();
        const review = page.getByRole("dialog", { name: "Review the import" });
        const importButton = review.getByRole("button", { name: `Import ${count.format(writes)} secrets` });
        await importButton.waitFor({ timeout: 60_000 });
        preview.push(Date.now() - start);
        if (profiler && profileDir) {
          const { profile } = await profiler.send("Profiler.stop");
          writeFileSync(
            path.join(profileDir, `preview${data.secretPath.replace("/", "-")}.cpuprofile`),
            JSON.stringify(profile),
          );
        }
        listCall.push(await responseTime(await listed));

        // From the click on Import to the folder read again and the dialog gone: one PATCH upsert.
        await profiler?.send("Profiler.start");
        start = Date.now();
        const sent = page.waitForRequest((request) => request.url().includes("/api/v3/secrets/batch/raw"));
        await importButton.click();
        await page.getByText("Secrets imported").first().waitFor({ timeout: 120_000 });
        batch.push(Date.now() - start);
        if (profiler && profileDir) {
          const { profile } = await profiler.send("Profiler.stop");
          writeFileSync(
            path.join(profileDir, `batch${data.secretPath.replace("/", "-")}.cpuprofile`),
            JSON.stringify(profile),
          );
        }
        const request = await sent;
        batchCall.push(await responseTime(await request.response()));
        const body = request.postDataJSON() as { secrets: unknown[] };
        if (body.secrets.length !== writes) throw new Error(`the batch held ${body.secrets.length} secrets`);
        console.error(
          `  ${data.secretPath}: preview ${preview.at(-1)} ms (list call ${listCall.at(-1)?.toFixed(0)} ms), batch ${batch.at(-1)} ms (PATCH ${batchCall.at(-1)?.toFixed(0)} ms)`,
        );
      }
    } finally {
      await browser.close();
    }
    const label = `import .env ${count.format(LINES)} lines`;
    // The first round warmed up: it is left out.
    const measured = (values: number[]) => median(values.slice(1));
    return [
      { case: label, metric: "parse + plan in Node p50 ms", keyhold: median(nodeTimings), higherIsBetter: false },
      { case: label, metric: "click to preview p50 ms", keyhold: measured(preview), higherIsBetter: false },
      { case: label, metric: "of which the list call p50 ms", keyhold: measured(listCall), higherIsBetter: false },
      {
        case: label,
        metric: `one batch of ${count.format(writes)} p50 ms`,
        keyhold: measured(batch),
        higherIsBetter: false,
      },
      { case: label, metric: "of which the PATCH p50 ms", keyhold: measured(batchCall), higherIsBetter: false },
    ];
  },
};
