import { type Endpoint, endpointList, ErrorBodySchema } from "@keyhold/contract";
import { loadRecordings, type ServerYear, sampleDir } from "@keyhold/fixtures";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { Upstream } from "../upstream/client.ts";
import { UpstreamCompat } from "./upstream-compat.ts";

const silent = pino({ level: "silent" });
const compat = new UpstreamCompat({} as Upstream);

/**
 * The endpoint a recorded request was for. `/api/v4/secrets/batch` also fits the template of one
 * secret (`/api/v4/secrets/{secretName}`); as in the routers, the path without parameters wins.
 */
function endpointAt(method: string, path: string): Endpoint | undefined {
  const params = (e: Endpoint) => (e.path.match(/\{/g) ?? []).length;
  return (endpointList as readonly Endpoint[])
    .filter((e) => e.method === method && new RegExp(`^${e.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path))
    .sort((a, b) => params(a) - params(b))[0];
}

/** The batch raw secret calls both recorded servers answered (in their paid-plan sets). */
describe.each([2024, 2026] as const satisfies readonly ServerYear[])("batch answers of the %s server", (year) => {
  const batches = loadRecordings(sampleDir(year, "more")).filter((r) => r.path.includes("/batch"));

  it("were recorded", () => {
    expect(batches).toHaveLength(year === 2024 ? 10 : 13);
  });

  const successes = batches.flatMap((r) => {
    const endpoint = r.status < 300 ? endpointAt(r.method, r.path) : undefined;
    return endpoint ? [{ ...r, endpoint }] : [];
  });
  it.each(successes.map((r) => [r.file, r] as const))("%s reads in the console's shape", (_file, r) => {
    const answer = compat.read(r.endpoint, { status: r.status, text: JSON.stringify(r.body) }, "req-replay", silent);
    const parsed = r.endpoint.response.safeParse(answer.json);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const keys = (body: unknown) => (body as { secrets: { secretKey: string }[] }).secrets.map((s) => s.secretKey);
    expect(keys(answer.json)).toEqual(keys(r.body));
  });

  const failures = batches.filter((r) => r.status >= 400);
  it.each(failures.map((r) => [r.file, r] as const))("%s reads as one error envelope", (_file, r) => {
    const endpoint = endpointAt(r.method, r.path);
    if (!endpoint) {
      // The 2024 server has no v4 batch path: its 404 is the route's absence.
      expect(r.status).toBe(404);
      return;
    }
    const answer = compat.read(endpoint, { status: r.status, text: JSON.stringify(r.body) }, "req-replay", silent);
    const body = ErrorBodySchema.parse(answer.json);
    // 2024 servers answer a refused body with 401 ValidationFailure: it reads as 422.
    const validation = (r.body as { error?: string }).error === "ValidationFailure";
    expect(answer.status).toBe(validation ? 422 : r.status);
    if (!validation) expect(body.message).toBe((r.body as { message: string }).message);
  });
});
