import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { csrf, expect, test } from "../support/fixtures.ts";
import { freePort } from "../support/processes.ts";

/**
 * deploy/nginx.conf, unchanged but for where it listens, what it serves and where the BFF is,
 * run by Debian's nginx in front of the suite's BFF and the console build that BFF serves.
 */
const root = resolve(import.meta.dirname, "../..");
const NGINX = "/usr/sbin/nginx";
const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
const webDist = resolve(process.env.KEYHOLD_WEB_DIST ?? join(root, "web/dist"));

/** The headers the console's pages carry, whichever server sends them. */
const SECURITY_HEADERS = [
  "content-security-policy",
  "strict-transport-security",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "permissions-policy",
];

/** Replaces one piece of the shipped config; fails when the config no longer has it. */
function replaceIn(config: string, from: string | RegExp, to: string): string {
  const replaced = config.replaceAll(from instanceof RegExp ? new RegExp(from, "g") : from, to);
  if (replaced === config) throw new Error(`deploy/nginx.conf no longer contains ${String(from)}`);
  return replaced;
}

test.describe("the console behind nginx with deploy/nginx.conf", () => {
  test.skip(
    !existsSync(NGINX) || !existsSync(BROTLI_MODULE),
    "needs Debian's nginx-light and libnginx-mod-http-brotli-static (npm test installs them)",
  );
  test.describe.configure({ mode: "serial" });

  let nginx: ChildProcess | undefined;
  let workDir = "";
  let base = "";
  let accessLogFile = "";
  const accessLog = () => readFileSync(accessLogFile, "utf8");
  const bff = process.env.KEYHOLD_E2E_BASE_URL ?? "";

  test.beforeAll(async () => {
    expect(existsSync(join(webDist, "index.html")), `a console build in ${webDist}`).toBe(true);
    workDir = mkdtempSync(join(tmpdir(), "keyhold-nginx-"));
    // nginx's workers run as an unprivileged user when the test runs as root.
    chmodSync(workDir, 0o755);
    const port = await freePort();
    let config = readFileSync(join(root, "deploy/nginx.conf"), "utf8");
    config = replaceIn(config, /\/tmp\//, `${workDir}/`);
    config = replaceIn(config, "listen 8080 default_server;", `listen 127.0.0.1:${port} default_server;`);
    config = replaceIn(config, "listen [::]:8080 default_server;", "");
    config = replaceIn(config, /root \/usr\/share\/keyhold\/console;/, `root ${webDist};`);
    config = replaceIn(config, "server bff:8080", `server ${new URL(bff).host}`);
    // A socket cannot be reopened as /dev/stdout: the log goes to a file the test reads.
    accessLogFile = join(workDir, "access.log");
    config = replaceIn(config, "access_log /dev/stdout keyhold;", `access_log ${accessLogFile} keyhold;`);
    const configFile = join(workDir, "nginx.conf");
    writeFileSync(configFile, config);

    // Run as root (CI does), nginx's workers would drop to an unprivileged user that cannot read a
    // checkout under a private directory; the workers keep the test's user instead.
    const directives = process.getuid?.() === 0 ? "daemon off; user root;" : "daemon off;";
    nginx = spawn(NGINX, ["-e", "stderr", "-c", configFile, "-g", directives], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    nginx.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    base = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        async () => {
          if (nginx?.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
          return fetch(`${base}/favicon.svg`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 20_000 },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx?.once("exit", done));
      nginx.kill("SIGQUIT");
      await exited;
    }
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  test("serves index.html precompressed, never stored, with the BFF's security headers", async () => {
    const [viaNginx, viaBff] = await Promise.all([
      fetch(`${base}/`, { headers: { "accept-encoding": "br, gzip" } }),
      fetch(`${bff}/`, { headers: { "accept-encoding": "br, gzip" } }),
    ]);
    expect(viaNginx.status).toBe(200);
    expect(viaNginx.headers.get("content-encoding")).toBe("br");
    expect(viaNginx.headers.get("content-type")).toMatch(/^text\/html/);
    expect(viaNginx.headers.get("cache-control")).toBe("no-store");
    expect(viaNginx.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(viaNginx.headers.get("server")).toBe("nginx");
    for (const name of SECURITY_HEADERS) {
      expect(viaNginx.headers.get(name), name).toBe(viaBff.headers.get(name));
      expect(viaNginx.headers.get(name), name).toBeTruthy();
    }
    expect(await viaNginx.text()).toBe(await viaBff.text());

    const gzipOnly = await fetch(`${base}/`, { headers: { "accept-encoding": "gzip" } });
    expect(gzipOnly.headers.get("content-encoding")).toBe("gzip");
  });

  test("caches hashed assets as immutable, and answers 404 for a missing one", async () => {
    const html = readFileSync(join(webDist, "index.html"), "utf8");
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, "a hashed script in index.html").toBeTruthy();

    const asset = await fetch(`${base}${script}`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-encoding")).toBe("br");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-security-policy")).toBe(
      (await fetch(`${bff}/`)).headers.get("content-security-policy"),
    );
    // The build's own brotli copy, sent as it is (fetch decodes it).
    expect(Number(asset.headers.get("content-length"))).toBe(statSync(join(webDist, `${script}.br`)).size);
    expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(join(webDist, `${script}`)))).toBe(true);

    const missing = await fetch(`${base}/assets/missing-0000.js`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${base}/.vite/manifest.json`)).status).toBe(404);
  });

  test("answers deep links with the console and passes /api/ and /bff/ to the BFF", async () => {
    const deepLink = await fetch(`${base}/identities/some-id`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get("cache-control")).toBe("no-store");
    expect(await deepLink.text()).toContain('<div id="root"');

    // The BFF's own answers: its error envelope and its no-store, not the console's page.
    const api = await fetch(`${base}/api/v1/identities?orgId=x`, { headers: csrf });
    expect(api.status).toBe(401);
    expect(api.headers.get("cache-control")).toBe("no-store");
    expect((await api.json()).statusCode).toBe(401);
    const session = await fetch(`${base}/bff/session`, { headers: csrf });
    expect(session.status).toBe(401);
    // One copy of each security header: nginx adds none of its own to the BFF's answers.
    expect(session.headers.get("content-security-policy")).toBe(
      (await fetch(`${bff}/`)).headers.get("content-security-policy"),
    );
  });

  test("refuses a body over the limit in the API's error envelope, which fetch receives", async () => {
    const response = await fetch(`${base}/api/v1/identities/some-id`, {
      method: "PATCH",
      headers: { ...csrf, "content-type": "application/json", "x-request-id": "too-large-1" },
      body: JSON.stringify({ name: "x".repeat(6 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      reqId: "too-large-1",
      statusCode: 413,
      error: "PayloadTooLarge",
      message: "The request body is larger than the 1 MB limit",
    });
  });

  test("gives each proxied request one id, logged by nginx and used by the BFF", async () => {
    const fresh = await fetch(`${base}/bff/session?hint=abc`, { headers: csrf });
    const id = fresh.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await expect.poll(accessLog).toContain(`"requestId":"${id}"`);
    // The path is logged, never the query string.
    expect(accessLog()).toContain('"uri":"/bff/session"');
    expect(accessLog()).not.toContain("hint=abc");

    const kept = await fetch(`${base}/bff/session`, { headers: { ...csrf, "x-request-id": "trace-42" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-42");
  });

  test("signs in through nginx in the browser", async ({ page, adminToken }) => {
    await page.goto(`${base}/`);
    await expect(page).toHaveURL(/\/sign-in/);
    await page.getByLabel("Access token").fill(adminToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();

    const [cookie] = await page.context().cookies(base);
    expect(cookie?.name).toMatch(/^__Host-/);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
  });
});
