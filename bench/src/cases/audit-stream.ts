import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildPath, endpoints } from "@keyhold/contract";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { compareWithCpu } from "../lib/compare-cpu.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { ensureWrk } from "../lib/wrk.ts";
import { CONNECTIONS, prepareSecretUpdates } from "./audit-write.ts";
import { call } from "./secrets-list.ts";

/** A log collector on loopback: accepts every batch and notes how long each event took to arrive. */
async function startCollector() {
  const lagsMs: number[] = [];
  const batchSizes: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const now = Date.now();
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (Array.isArray(body)) {
        batchSizes.push(body.length);
        for (const row of body as { createdAt: string }[]) lagsMs.push(now - Date.parse(row.createdAt));
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/audit-stream`,
    lagsMs,
    batchSizes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * PATCH /api/v3/secrets/raw/{name} on a service whose organisation streams every event to a
 * collector on loopback, against the same service with no stream: what delivery costs the write
 * path (throughput, latency, CPU per answer, delivery included). Then, once the backlog is
 * drained: how long events took from their commit to the collector, and how many one POST carried.
 */
function auditStream(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Secret update on ${database}: with an audit log stream receiving every event, against no stream`,
    async run(context: BenchContext): Promise<ResultRow[]> {
      ensureWrk();
      const postgres = database === "PostgreSQL";
      const collector = await startCollector();
      try {
        const streamed = await startService(context, { postgres });
        const plain = await startService(context, { postgres });
        await call(streamed, "POST", buildPath(endpoints["auditLogStreams.create"].path, { provider: "custom" }), {
          credentials: { url: collector.url, headers: [{ key: "Authorization", value: "Splunk bench-token" }] },
        });
        const contender = async (service: RunningService, name: string) => ({
          name,
          postgresUrl: service.databaseUrl,
          options: {
            url: service.url,
            headers: { authorization: `Bearer ${service.adminToken}` },
            script: await prepareSecretUpdates(
              service,
              context.scratchDir,
              `${name}-${id}`.replace(/[^a-z0-9-]/gi, "-"),
              "STREAMED",
            ),
            connections: CONNECTIONS,
          },
        });
        const caseName = `secret update (${database})`;
        const rows = await compareWithCpu(
          caseName,
          await contender(streamed, "with a stream"),
          await contender(plain, "without a stream"),
        );
        // Every event reaches the collector: wait for the backlog to drain.
        const status = buildPath(endpoints["auditLogStreams.status"].path, {});
        const deadline = Date.now() + 120_000;
        for (;;) {
          const { streams } = endpoints["auditLogStreams.status"].response.parse(await call(streamed, "GET", status));
          if (streams.every((s) => s.backlog === 0)) break;
          if (Date.now() > deadline) throw new Error(`stream backlog not drained: ${JSON.stringify(streams)}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const stream = `audit stream (${database})`;
        console.error(
          `  ${stream}: ${collector.lagsMs.length} events in ${collector.batchSizes.length} POSTs, lag p50 ${percentile(collector.lagsMs, 50)} ms`,
        );
        return [
          ...rows,
          { case: stream, metric: "events delivered", keyhold: collector.lagsMs.length, higherIsBetter: true },
          {
            case: stream,
            metric: "commit to collector p50 ms",
            keyhold: percentile(collector.lagsMs, 50),
            higherIsBetter: false,
          },
          {
            case: stream,
            metric: "commit to collector p95 ms",
            keyhold: percentile(collector.lagsMs, 95),
            higherIsBetter: false,
          },
          {
            case: stream,
            metric: "events per POST (median)",
            keyhold: median(collector.batchSizes),
            higherIsBetter: true,
          },
        ];
      } finally {
        await collector.close();
      }
    },
  };
}

export const auditStreamCases: BenchCase[] = [
  auditStream("audit-stream", "SQLite"),
  auditStream("audit-stream-pg", "PostgreSQL"),
];
