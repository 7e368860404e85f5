import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { freePort, startNode, startProgram, waitForUrl } from "../lib/processes.ts";
import { csrfHeaders, type RunningService, startBareFloor, startService } from "../lib/stack.ts";
import { ensureDebianPackages } from "../lib/system.ts";
import { compare, ensureWrk } from "../lib/wrk.ts";

/** nginx as the floor of a hop: one worker, keep-alive to the upstream, no access log. */
function nginxConfig(dir: string, port: number, upstreamPort: number): string {
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
  scgi_temp_path ${dir}/scgi;
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

async function startNginx(context: BenchContext, upstreamUrl: string): Promise<string> {
  ensureDebianPackages({ "/usr/sbin/nginx": "nginx" });
  const port = await freePort();
  const dir = path.join(context.scratchDir, `nginx-${port}`);
  mkdirSync(dir, { recursive: true, mode: 0o777 });
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, nginxConfig(dir, port, Number(new URL(upstreamUrl).port)));
  const nginx = context.processes.add(startProgram("nginx", "/usr/sbin/nginx", ["-c", file, "-p", dir]));
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/healthz`, nginx);
  return url;
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
      const upstreamUrl = await startBareFloor(context, service);
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
