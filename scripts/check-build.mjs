// Checks the output of `pnpm build` the way production runs it: `node service/dist/server.js`
// and `node bff/dist/server.js`, with no TypeScript loader, NODE_ENV=production and the root key
// from a file. Each answers /healthz and /readyz, the BFF serves the console and signs in through
// the service, a request id travels from the BFF to the service, every log line is JSON, a wrong
// configuration stops the compiled process with one line, and SIGTERM ends both with exit code 0.
// Run after `pnpm build`: `pnpm check:build`. Prints "ok"/"not ok" lines and "N passed, N failed".
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
/** The built console (KEYHOLD_WEB_DIST overrides, as it does for the BFF). */
const webDist = process.env.KEYHOLD_WEB_DIST ?? join(root, "web/dist");
const scratch = mkdtempSync(join(tmpdir(), "keyhold-build-check-"));
const results = [];
const children = [];

function check(name, ok, detail = "") {
  results.push(ok);
  console.log(`${ok ? "ok" : "not ok"} - ${name}${ok || !detail ? "" : `\n    ${detail.replaceAll("\n", "\n    ")}`}`);
  return ok;
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Starts a compiled entry with only the given environment (and PATH), collecting its output. */
function start(entry, env) {
  const child = spawn(process.execPath, [join(root, entry)], {
    cwd: scratch,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => {
    out.stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    out.stderr += chunk;
  });
  const exited = new Promise((done) => child.once("exit", (code, signal) => done(code ?? signal)));
  children.push(child);
  return { child, out, exited };
}

async function waitFor(url, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) return false;
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 150));
  }
  return false;
}

const withTimeout = (promise, ms) =>
  Promise.race([promise, new Promise((done) => setTimeout(() => done("timeout"), ms))]);

async function main() {
  for (const file of [
    "contract/dist/index.js",
    "contract/dist/runtime-config.js",
    "service/dist/server.js",
    "service/dist/db/migrations.js",
    "bff/dist/server.js",
  ]) {
    if (!check(`${file} was built`, existsSync(join(root, file)), "run pnpm build first")) return;
  }
  if (!check(`${webDist}/index.html was built`, existsSync(join(webDist, "index.html")), "run pnpm build first"))
    return;

  const keyFile = join(scratch, "root-key");
  writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  const dataDir = join(scratch, "data");
  const [servicePort, bffPort] = await Promise.all([freePort(), freePort()]);
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;

  const service = start("service/dist/server.js", {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(servicePort),
    KEYHOLD_DATA_DIR: dataDir,
    KEYHOLD_ROOT_KEY_FILE: keyFile,
  });
  if (!check("the compiled service starts", await waitFor(`${serviceUrl}/healthz`, service), service.out.stderr))
    return;
  for (const path of ["/healthz", "/readyz", "/api/status"]) {
    const res = await fetch(`${serviceUrl}${path}`);
    check(`service ${path} answers 200`, res.status === 200, `${res.status} ${await res.text()}`);
  }
  check("no root key file was made (the configured key is used)", !existsSync(join(dataDir, "root-key")));

  const bff = start("bff/dist/server.js", {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(bffPort),
    KEYHOLD_UPSTREAM_URL: serviceUrl,
    KEYHOLD_WEB_DIST: webDist,
  });
  if (!check("the compiled BFF starts", await waitFor(`${bffUrl}/healthz`, bff), bff.out.stderr)) return;
  for (const path of ["/healthz", "/readyz"]) {
    const res = await fetch(`${bffUrl}${path}`);
    check(`BFF ${path} answers 200`, res.status === 200, `${res.status} ${await res.text()}`);
  }
  const page = await fetch(`${bffUrl}/`);
  check("the BFF serves the built console", page.status === 200 && (await page.text()).includes("<div id="));

  const adminToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
  const login = await fetch(`${bffUrl}/bff/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf": "1" },
    body: JSON.stringify({ accessToken: adminToken }),
  });
  const setCookie = login.headers.get("set-cookie") ?? "";
  check("sign-in through the BFF and the service works", login.status === 200, `${login.status}`);
  check("the session cookie is __Host- and Secure", /^__Host-keyhold=[^;]+;.*\bSecure\b/.test(setCookie), setCookie);

  const cookie = setCookie.split(";")[0];
  const { organization } = await (await fetch(`${bffUrl}/bff/session`, { headers: { "x-csrf": "1", cookie } })).json();
  const reqId = `build-check-${randomBytes(6).toString("hex")}`;
  const listed = await fetch(`${bffUrl}/api/v1/identities?orgId=${organization.id}`, {
    headers: { "x-csrf": "1", cookie, "x-request-id": reqId },
  });
  check(
    "a forwarded call answers with the caller's request id",
    listed.status === 200 && listed.headers.get("x-request-id") === reqId,
    `${listed.status} ${listed.headers.get("x-request-id")}`,
  );

  // Both processes end on SIGTERM with exit code 0, writing what they buffered.
  bff.child.kill("SIGTERM");
  service.child.kill("SIGTERM");
  check("SIGTERM stops the BFF with exit code 0", (await withTimeout(bff.exited, 30_000)) === 0, bff.out.stderr);
  check(
    "SIGTERM stops the service with exit code 0",
    (await withTimeout(service.exited, 30_000)) === 0,
    service.out.stderr,
  );

  for (const [name, proc] of [
    ["service", service],
    ["BFF", bff],
  ]) {
    const lines = proc.out.stdout.split("\n").filter((line) => line !== "");
    const notJson = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    check(
      `every ${name} log line is JSON (${lines.length} lines)`,
      lines.length > 0 && notJson.length === 0,
      notJson.join("\n"),
    );
    check(`the ${name} log holds the request id`, proc.out.stdout.includes(`"reqId":"${reqId}"`));
    check(
      `the ${name} log holds no token or cookie`,
      !proc.out.stdout.includes(adminToken) && !proc.out.stdout.includes(cookie.split("=")[1]),
    );
  }

  // A wrong configuration stops the compiled processes at once, in one line naming the variable.
  for (const [entry, env, name] of [
    ["service/dist/server.js", { NODE_ENV: "production", KEYHOLD_DATA_DIR: dataDir }, "KEYHOLD_ROOT_KEY"],
    ["service/dist/server.js", { DATABASE_URL: "mysql://db/keyhold", KEYHOLD_DATA_DIR: dataDir }, "DATABASE_URL"],
    ["bff/dist/server.js", { REDIS_URL: "localhost:6379" }, "REDIS_URL"],
    ["bff/dist/server.js", { KEYHOLD_UPSTREAM_URL: "service:8081" }, "KEYHOLD_UPSTREAM_URL"],
  ]) {
    const proc = start(entry, { PORT: "0", ...env });
    const code = await withTimeout(proc.exited, 30_000);
    const lines = proc.out.stderr.split("\n").filter((line) => line !== "");
    check(
      `${entry} with a wrong ${name} exits 1 with one line naming it`,
      code === 1 &&
        lines.length === 1 &&
        lines[0].startsWith("Invalid configuration: ") &&
        lines[0].includes(`${name}: `),
      `exit ${code}\n${proc.out.stderr}${proc.out.stdout}`,
    );
  }
}

try {
  await main();
} catch (error) {
  check("the check ran to its end", false, String(error?.stack ?? error));
} finally {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
}
const passed = results.filter(Boolean).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
