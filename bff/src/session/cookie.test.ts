import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF, JSON_CSRF, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

let upstream: RecordingUpstream;
beforeAll(async () => {
  upstream = await startRecordingUpstream(() => ({ status: 200, body: { identity: membership() } }));
});
afterAll(async () => upstream.close());

async function signIn(bff: TestBff) {
  const response = await bff.send({
    method: "POST",
    path: "/bff/login",
    headers: JSON_CSRF,
    body: JSON.stringify({ accessToken: fakeAccessToken() }),
  });
  expect(response.status).toBe(200);
  const [setCookie, ...others] = response.headers["set-cookie"] ?? [];
  expect(others).toEqual([]);
  return setCookie ?? "";
}

describe("the session cookie", () => {
  it("is __Host- and Secure by default, in production too", async () => {
    const bff = await startBff(testConfig({ upstreamOrigin: upstream.origin, nodeEnv: "production" }));
    try {
      const setCookie = await signIn(bff);
      expect(setCookie).toMatch(/^__Host-keyhold=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    } finally {
      await bff.close();
    }
  });

  it("loses Secure and the __Host- prefix only with KEYHOLD_INSECURE_COOKIES, and still carries the session", async () => {
    const bff = await startBff(testConfig({ upstreamOrigin: upstream.origin, insecureCookies: true }));
    try {
      const setCookie = await signIn(bff);
      expect(setCookie).toMatch(/^keyhold=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
      const cookie = setCookie.split(";")[0] ?? "";
      const session = await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } });
      expect(session.status).toBe(200);
      // The secure cookie's name means nothing here.
      const other = await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie: `__Host-${cookie}` } });
      expect(other.status).toBe(401);

      const logout = await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } });
      expect(logout.status).toBe(204);
      const cleared = logout.headers["set-cookie"]?.[0] ?? "";
      expect(cleared).toMatch(/^keyhold=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
      expect((await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } })).status).toBe(401);
    } finally {
      await bff.close();
    }
  });
});
