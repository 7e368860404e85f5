import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONTRACT_REVISION_HEADER } from "@keyhold/contract/revision";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { freePort, startNode, startProgram, waitForUrl } from "../lib/processes.ts";
import { csrfHeaders, type RunningService, startService } from "../lib/stack.ts";
import { ensureDebianPackages } from "../lib/system.ts";
import { compare, ensureWrk } from "../lib/wrk.ts";

/** Paths in nginx's scratch folders, so that nginx writes nothing outside the run's own. */
function nginxPreamble(dir: string): string {
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;`;
}

/** nginx as the floor of a hop: one worker, keep-alive to the upstream, no access log. */
function nginxConfig(dir: string, port: number, upstreamPort: number): string {
  return `${nginxPreamble(dir)}
  upstream service { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

/**
 * Text as an nginx single-quoted string whose variables are not expanded: quotes and
 * backslashes escaped, and every "$" written as the variable $dollar, which holds one.
 */
function nginxString(text: string): string {
  return `'${text.replace(/[\\']/g, "\\$&").replace(/\$/g, "${dollar}")}'`;
}

/** What the service answers to the measured read: captured once, then served as is. */
export interface CapturedRead {
  path: string;
  /** The bearer token the read needs. */
  token: string;
  contentType: string;
  /** The contract revision that shaped the answer, which tells the BFF it may pass it on unread. */
  revision: string;
  body: string;
}

export async function captureRead(service: RunningService): Promise<CapturedRead> {
  const response = await fetch(`${service.url}${service.readPath}`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  if (!response.ok) throw new Error(`the service answered ${response.status} to the measured read`);
  const contentType = response.headers.get("content-type");
  const revision = response.headers.get(CONTRACT_REVISION_HEADER);
  if (!contentType || !revision) throw new Error("the service answered the measured read without its headers");
  return { path: service.readPath, token: service.adminToken, contentType, revision, body: await response.text() };
}

/**
 * The stand-in upstream: nginx answering the captured read with `return 200` (its own worker,
 * keep-alive), so that it is faster than either proxy in front of it, with the headers the BFF
 * reads of it: the content type and the contract revision. It checks the bearer
 * token by string comparison (both proxies must pass the session's token on), answers 401
 * without it, and 404 to any other path or method.
 */
function cannedConfig(dir: string, port: number, read: CapturedRead): string {
  return `${nginxPreamble(dir)}
  keepalive_requests 1000000;
  geo $dollar { default "$"; }
  server {
    listen 127.0.0.1:${port};
    location = ${read.path} {
      if ($request_method != GET) { return 404; }
      if ($http_authorization != ${nginxString(`Bearer ${read.token}`)}) { return 401; }
      default_type ${nginxString(read.contentType)};
      add_header ${CONTRACT_REVISION_HEADER} ${nginxString(read.revision)};
      return 200 ${nginxString(read.body)};
    }
    location / { return 404; }
  }
}
`;
}

async function runNginx(context: BenchContext, name: string, config: (dir: string, port: number) => string) {
  ensureDebianPackages({ "/usr/sbin/nginx": "nginx" });
  const port = await freePort();
  const dir = path.join(context.scratchDir, `nginx-${port}`);
  mkdirSync(dir, { recursive: true, mode: 0o777 });
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, config(dir, port));
  const nginx = context.processes.add(startProgram(name, "/usr/sbin/nginx", ["-c", file, "-p", dir]));
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/healthz`, nginx);
  return url;
}

export function startNginx(context: BenchContext, upstreamUrl: string): Promise<string> {
  const upstreamPort = Number(new URL(upstreamUrl).port);
  return runNginx(context, "nginx", (dir, port) => nginxConfig(dir, port, upstreamPort));
}

/** Starts the stand-in upstream for the service's measured read (see `cannedConfig`). */
export async function startCannedUpstream(context: BenchContext, service: RunningService): Promise<string> {
  const read = await captureRead(service);
  return runNginx(context, "stand-in upstream", (dir, port) => cannedConfig(dir, port, read));
}

export async function startBff(
  context: BenchContext,
  upstreamUrl: string,
  redisUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<string> {
  const port = await freePort();
  const bff = context.processes.add(
    startNode("bff", "bff/src/server.ts", {
      PORT: String(port),
      HOST: "127.0.0.1",
      KEYHOLD_UPSTREAM_URL: upstreamUrl,
      KEYHOLD_LOGIN_RATE_LIMIT: "1000",
      ...(redisUrl && { REDIS_URL: redisUrl }),
      ...env,
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/healthz`, bff);
  return url;
}

/** Signs in to the BFF with the admin token and returns the session cookie, as a browser holds it. */
export async function signIn(bffUrl: string, service: RunningService): Promise<string> {
  const response = await fetch(`${bffUrl}/bff/login`, {
    method: "POST",
    headers: { ...csrfHeaders, "content-type": "application/json" },
    body: JSON.stringify({ accessToken: service.adminToken }),
  });
  if (!response.ok) throw new Error(`sign-in through the BFF answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (!cookie) throw new Error("the BFF set no session cookie");
  return cookie;
}

/**
 * The same read through the BFF (session cookie) and through nginx (bearer token), both in
 * front of one fast stand-in upstream, so that the figures are the hop's own cost.
 */
function bffHop(id: string, sessions: "memory" | "Redis"): BenchCase {
  return {
    id,
    title: `The BFF hop, sessions in ${sessions}: the BFF against nginx in front of the same upstream`,
    async run(context: BenchContext) {
      ensureWrk();
      const redisUrl = sessions === "Redis" ? process.env.KEYHOLD_BENCH_REDIS_URL : undefined;
      if (sessions === "Redis" && !redisUrl) throw new Error("no Redis for this run (KEYHOLD_BENCH_REDIS_URL)");
      const service = await startService(context, { postgres: false });
      const upstreamUrl = await startCannedUpstream(context, service);
      const [bffUrl, nginxUrl] = await Promise.all([
        startBff(context, upstreamUrl, redisUrl),
        startNginx(context, upstreamUrl),
      ]);
      const cookie = await signIn(bffUrl, service);
      return compare(
        `BFF hop (sessions in ${sessions})`,
        { name: "BFF", options: { url: `${bffUrl}${service.readPath}`, headers: { cookie, ...csrfHeaders } } },
        {
          name: "nginx",
          options: {
            url: `${nginxUrl}${service.readPath}`,
            headers: { authorization: `Bearer ${service.adminToken}` },
          },
        },
      );
    },
  };
}

export const bffHopCases: BenchCase[] = [bffHop("bff-hop", "memory"), bffHop("bff-hop-redis", "Redis")];
