import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger, lazyChildLoggerFactory } from "../logger.ts";
import { CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { answerAsRecorded, fakeAccessToken, IDENTITY_ID, membership, ORG_ID } from "../test/samples.ts";

let upstream: RecordingUpstream;
let bff: TestBff;
let cookie: string;
let token: string;
let lines: Record<string, unknown>[];

beforeAll(async () => {
  upstream = await startRecordingUpstream(() => ({ status: 200, body: { identity: membership() } }));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  lines = [];
  bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }), { logger: pino({ level: "info" }, sink) });
  token = fakeAccessToken();
  ({ cookie } = await logIn(bff, token));
  upstream.respond(answerAsRecorded);
});
afterAll(async () => {
  await bff.close();
  await upstream.close();
});
beforeEach(() => {
  lines = [];
});

/** Waits for the completion line, written once the response has gone out. */
async function logged(count: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 50 && lines.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  return lines;
}

describe("the request log", () => {
  it("writes one line per request: id, method, route template, status and duration", async () => {
    const res = await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    expect(res.status).toBe(200);
    const [line, ...rest] = await logged(1);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      reqId: expect.stringMatching(/^req-[A-Za-z0-9]{14}$/),
      method: "GET",
      route: "/api/v1/identities/:identityId",
      statusCode: 200,
      ms: expect.any(Number),
      msg: "request completed",
    });
  });

  it("logs no query string, parameter value, header, cookie or token", async () => {
    const secretish = "s3cr3t-query-value";
    await bff.send({
      path: `/api/v1/identities?orgId=${ORG_ID}&extra=${secretish}`,
      headers: { ...CSRF, cookie, authorization: "Bearer browser-token" },
    });
    await bff.send({ path: `/api/v1/identities/${IDENTITY_ID}`, headers: { ...CSRF, cookie } });
    await bff.send({ path: `/api/nope?token=${secretish}`, headers: { ...CSRF, cookie } });
    const text = JSON.stringify(await logged(3));
    expect(lines.map((l) => l.route)).toEqual(["/api/v1/identities", "/api/v1/identities/:identityId", "/api/*"]);
    for (const value of [secretish, ORG_ID, IDENTITY_ID, cookie.split("=")[1] ?? "", token, "browser-token"]) {
      expect(text).not.toContain(value);
    }
  });

  it("logs requests that match no route by their path, without the query", async () => {
    await bff.send({ path: "/healthz/nope?x=secret", headers: {} });
    const [line] = await logged(1);
    expect(line).toMatchObject({ method: "GET", route: "/healthz/nope", statusCode: 404 });
    expect(JSON.stringify(line)).not.toContain("secret");
  });

  it("leaves the app logger's redaction in place for every other line", async () => {
    const out: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString("utf8"));
        done();
      },
    });
    const other = await startBff(testConfig({ upstreamOrigin: upstream.origin }), {
      logger: createLogger("info", sink),
    });
    try {
      await other.send({ path: "/healthz", headers: {} });
      other.app.log.info({ accessToken: "tok-123", nested: { token: "tok-456" } }, "something");
      for (let i = 0; i < 50 && !out.join("").includes("/healthz"); i++) await new Promise((r) => setTimeout(r, 10));
      const text = out.join("");
      expect(text).toContain('"route":"/healthz"');
      expect(text).not.toContain("tok-123");
      expect(text).not.toContain("tok-456");
    } finally {
      await other.close();
    }
  });

  it("writes a request's own lines with its id and the app logger's redaction (its logger made when first used)", async () => {
    const out: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString("utf8"));
        done();
      },
    });
    const logger = createLogger("info", sink);
    const child = lazyChildLoggerFactory.call({} as never, logger, { reqId: "req-lazy" }, {}, {} as never);
    child.info({ accessToken: "tok-789", nested: { token: "tok-012" } }, "something");
    expect(child.level).toBe("info");
    const other = await startBff(testConfig({ upstreamOrigin: upstream.origin }), { logger });
    try {
      const otherCookie = (await logIn(other, fakeAccessToken())).cookie;
      upstream.respond(() => ({ status: 200, body: "<html>", headers: { "content-type": "text/html" } }));
      const res = await other.send({
        path: `/api/v1/identities/${IDENTITY_ID}`,
        headers: { ...CSRF, cookie: otherCookie },
      });
      expect(res.status).toBe(502);
      for (let i = 0; i < 50 && !out.join("").includes("without JSON"); i++)
        await new Promise((r) => setTimeout(r, 10));
      const parsed = out
        .join("")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed[0]).toMatchObject({
        reqId: "req-lazy",
        accessToken: "[redacted]",
        nested: { token: "[redacted]" },
      });
      expect(parsed).toContainEqual(
        expect.objectContaining({ reqId: res.headers["x-request-id"], msg: "upstream answered without JSON" }),
      );
    } finally {
      upstream.respond(answerAsRecorded);
      await other.close();
    }
  });
});
