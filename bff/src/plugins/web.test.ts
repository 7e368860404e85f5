import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorNames } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { CONTENT_SECURITY_POLICY } from "./security-headers.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f9a.js"></script></head></html>';
let dist: string;
let bff: TestBff;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), "keyhold-web-"));
  await mkdir(join(dist, "assets"));
  await writeFile(join(dist, "index.html"), INDEX);
  await writeFile(join(dist, "assets", "app-3f9a.js"), "export {};");
  await writeFile(join(dist, "favicon.svg"), "<svg/>");
  // Stand-ins for the build's precompressed copies: distinct bodies show which file was sent.
  await writeFile(join(dist, "index.html.br"), "index.html as brotli");
  await writeFile(join(dist, "index.html.gz"), "index.html as gzip");
  await writeFile(join(dist, "assets", "app-3f9a.js.br"), "app.js as brotli");
  await writeFile(join(dist, "assets", "app-3f9a.js.gz"), "app.js as gzip");
  await writeFile(join(dist, ".env"), "SECRET=1");
  bff = await startBff(testConfig({ webDistDir: dist, upstreamOrigin: "http://127.0.0.1:9" }));
});
afterAll(async () => {
  await bff.close();
  await rm(dist, { recursive: true, force: true });
});

const EXPECTED_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; " +
    "object-src 'none'",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

describe("security headers", () => {
  it.each([
    ["/", 200, "no-store"],
    ["/assets/app-3f9a.js", 200, "public, max-age=31536000, immutable"],
    ["/api/v1/identities", 401, "no-store"],
    ["/bff/session", 401, "no-store"],
    ["/assets/missing.js", 404, undefined],
  ])("GET %s → %i with every header", async (path, status, cacheControl) => {
    const res = await bff.send({ path, headers: CSRF });
    expect(res.status).toBe(status);
    expect(res.headers).toMatchObject(EXPECTED_HEADERS);
    expect(res.headers["permissions-policy"]).toMatch(
      /^accelerometer=\(\), camera=\(\),.* microphone=\(\),.* usb=\(\)$/,
    );
    expect(res.headers["cache-control"]).toBe(cacheControl);
    expect(res.headers.server).toBeUndefined();
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });

  it("keeps inline script and eval out of the policy", () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|upgrade-insecure-requests/);
  });
});

describe("the single-page app", () => {
  it("serves index.html uncached at /", async () => {
    const res = await bff.send({ path: "/" });
    expect(res.text).toBe(INDEX);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
  });

  it.each(["/identities", "/projects/abc/secrets?env=dev", "/index.html"])(
    "answers the deep link %s with index.html",
    async (path) => {
      const res = await bff.send({ path, headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers["cache-control"]).toBe("no-store");
    },
  );

  it("serves other files revalidated, not immutable", async () => {
    const res = await bff.send({ path: "/favicon.svg" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("does not serve dotfiles", async () => {
    const res = await bff.send({ path: "/.env" });
    expect(res.text).not.toContain("SECRET");
  });

  it.each([
    ["POST", "/identities"],
    ["GET", "/assets/nope.js"],
    ["GET", "/bff/unknown"],
  ])("answers %s %s 404 in the error envelope", async (method, path) => {
    const res = await bff.send({ method, path, headers: CSRF });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ statusCode: 404, error: errorNames.notFound });
  });

  it("exposes a health route outside /api and /bff, without X-CSRF", async () => {
    const res = await bff.send({ path: "/healthz" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
  });
});

describe("precompressed files", () => {
  it.each([
    ["/", "br, gzip", "br", "index.html as brotli", "no-store"],
    ["/", "gzip", "gzip", "index.html as gzip", "no-store"],
    ["/identities", "gzip, deflate, br, zstd", "br", "index.html as brotli", "no-store"],
    ["/projects/abc/secrets", "gzip", "gzip", "index.html as gzip", "no-store"],
    ["/assets/app-3f9a.js", "gzip, deflate, br, zstd", "br", "app.js as brotli", IMMUTABLE],
    ["/assets/app-3f9a.js", "br;q=0, gzip", "gzip", "app.js as gzip", IMMUTABLE],
  ])("GET %s accepting %s → %s", async (path, acceptEncoding, encoding, body, cacheControl) => {
    const res = await bff.send({ path, headers: { "accept-encoding": acceptEncoding } });
    expect(res.status).toBe(200);
    expect(res.text).toBe(body);
    expect(res.headers["content-encoding"]).toBe(encoding);
    expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(res.headers["content-type"]).toMatch(
      path.startsWith("/assets/") ? /^(text|application)\/javascript/ : /^text\/html/,
    );
    expect(res.headers.vary).toBe("accept-encoding");
    expect(res.headers["cache-control"]).toBe(cacheControl);
    expect(res.headers).toMatchObject(EXPECTED_HEADERS);
  });

  it.each([
    ["/", undefined, INDEX],
    ["/", "identity", INDEX],
    ["/identities", "br;q=0, gzip;q=0", INDEX],
    ["/assets/app-3f9a.js", "compress", "export {};"],
  ])("GET %s accepting %s → the original file", async (path, acceptEncoding, body) => {
    const res = await bff.send({ path, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
    expect(res.status).toBe(200);
    expect(res.text).toBe(body);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.vary).toBe("accept-encoding");
  });

  it("sends the original of a file that has no compressed copy", async () => {
    const res = await bff.send({ path: "/favicon.svg", headers: { "accept-encoding": "br, gzip" } });
    expect(res.text).toBe("<svg/>");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-cache");
  });
});

describe("without a built SPA", () => {
  it("says how to build it", async () => {
    const bare = await startBff(testConfig({ webDistDir: undefined }));
    try {
      const res = await bare.send({ path: "/identities" });
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: errorNames.notFound, message: /pnpm --filter @keyhold\/web build/ });
    } finally {
      await bare.close();
    }
  });
});

describe("a console build with an inline boot script", () => {
  const HASH = "'sha256-KeydJX2WtV0huP4glPdbxSUqFyR56o4G2qpyry1EbR0='";
  let built: string;
  let withBoot: TestBff;

  async function buildWithCsp(content: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "keyhold-web-csp-"));
    await mkdir(join(dir, ".vite"));
    await writeFile(join(dir, "index.html"), INDEX);
    await writeFile(join(dir, ".vite", "csp.json"), content);
    return dir;
  }

  beforeAll(async () => {
    built = await buildWithCsp(JSON.stringify({ "script-src": [HASH] }));
    withBoot = await startBff(testConfig({ webDistDir: built, upstreamOrigin: "http://127.0.0.1:9" }));
  });
  afterAll(async () => {
    await withBoot.close();
    await rm(built, { recursive: true, force: true });
  });

  it.each(["/", "/identities", "/bff/session"])("allows that one script by its hash on %s", async (path) => {
    const res = await withBoot.send({ path, headers: CSRF });
    expect(res.headers["content-security-policy"]).toBe(
      EXPECTED_HEADERS["content-security-policy"].replace("script-src 'self'", `script-src 'self' ${HASH}`),
    );
  });

  it("does not serve the build's list of hashes", async () => {
    const res = await withBoot.send({ path: "/.vite/csp.json" });
    expect(res.text).not.toContain("sha256");
  });

  it.each([
    ["a source that is not a hash", { "script-src": ["'unsafe-inline'"] }],
    ["a host", { "script-src": ["https://cdn.example"] }],
    ["no list", {}],
  ])("refuses to start on a list with %s", async (_, content) => {
    const dir = await buildWithCsp(JSON.stringify(content));
    try {
      await expect(startBff(testConfig({ webDistDir: dir, upstreamOrigin: "http://127.0.0.1:9" }))).rejects.toThrow(
        /does not list script hashes/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
