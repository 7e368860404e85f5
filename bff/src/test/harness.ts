import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import { type AppOverrides, buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import { SESSION_COOKIE } from "../session/cookie.ts";

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: "silent", KEYHOLD_WEB_DIST: "/nonexistent", KEYHOLD_LOGIN_RATE_LIMIT: "1000" });
  return { ...base, port: 0, ...overrides };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface RawRequest {
  method?: string;
  /** Sent byte for byte as the request target; nothing normalises it. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A running BFF and a client that speaks raw HTTP to it (fetch would normalise paths). */
export interface TestBff {
  app: FastifyInstance;
  send(request: RawRequest): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function startBff(config: Config, overrides: AppOverrides = {}): Promise<TestBff> {
  const app = await buildApp(config, overrides);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  const send = (req: RawRequest) =>
    new Promise<RawResponse>((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
      const outgoing = httpRequest({ host: "127.0.0.1", port, method: req.method ?? "GET", path: req.path, headers });
      outgoing.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      outgoing.on("error", reject);
      outgoing.end(req.body);
    });

  return { app, send, close: () => app.close() };
}

export const CSRF = { "x-csrf": "1" } as const;
export const JSON_CSRF = { "x-csrf": "1", "content-type": "application/json" } as const;

/** The session cookie a response sets, as name=value, or undefined. */
export function sessionCookieFrom(response: RawResponse): string | undefined {
  const header = response.headers["set-cookie"]?.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const pair = header?.split(";")[0];
  return pair && pair !== `${SESSION_COOKIE}=` ? pair : undefined;
}

export async function logIn(bff: TestBff, accessToken: string): Promise<{ cookie: string; response: RawResponse }> {
  const response = await bff.send({
    method: "POST",
    path: "/bff/login",
    headers: JSON_CSRF,
    body: JSON.stringify({ accessToken }),
  });
  const cookie = sessionCookieFrom(response);
  if (response.status !== 200 || !cookie) throw new Error(`login failed: ${response.status} ${response.text}`);
  return { cookie, response };
}
