import { endpoints, ErrorBodySchema } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

const LOCKED = "This identity auth method is temporarily locked, please try again later";

/**
 * Lockout after failed universal-auth logins, on two service instances sharing one database,
 * with the clock moved by the test (only Date is faked; timers and I/O run for real).
 */
describeEachDatabase("universal auth: lockout after failed logins", (kind) => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await startService({ kind, logLevel: "warn" });
    b = await startService({ kind, shareWith: a, logLevel: "warn" });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });
  afterEach(() => vi.useRealTimers());

  let clock = Date.now();
  const freezeClock = () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clock = Date.now();
    vi.setSystemTime(clock);
  };
  const advance = (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
  };

  /** An identity with universal auth (lockout settings as given) and one client secret. */
  async function locked(name: string, lockout: Record<string, unknown> = {}) {
    const res = await a.endpoint("identities.create", { body: { name, organizationId: a.info.orgId, role: "member" } });
    const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
    const attached = await a.endpoint("universalAuth.attach", {
      params: { identityId },
      body: { lockoutThreshold: 3, lockoutDurationSeconds: 300, lockoutCounterResetSeconds: 30, ...lockout },
    });
    expect(attached.status).toBe(200);
    const { clientId } = endpoints["universalAuth.attach"].response.parse(attached.body).identityUniversalAuth;
    const secret = await a.endpoint("universalAuth.createClientSecret", { params: { identityId }, body: {} });
    const { clientSecret } = endpoints["universalAuth.createClientSecret"].response.parse(secret.body);
    return { identityId, clientId, clientSecret };
  }

  const login = (svc: TestService, clientId: string, clientSecret: string) =>
    svc.endpoint("universalAuth.login", { body: { clientId, clientSecret } }, { token: null });
  const wrong = "0".repeat(64);
  const message = (body: unknown) => ErrorBodySchema.parse(body).message;
  const lockoutsOf = async (identityId: string) =>
    endpoints["identities.get"].response.parse((await a.endpoint("identities.get", { params: { identityId } })).body)
      .identity.identity.activeLockoutAuthMethods;

  it("locks a client id after the threshold of failures on either instance, even for the right secret", async () => {
    freezeClock();
    const { identityId, clientId, clientSecret } = await locked("lock-threshold");
    for (const svc of [a, b, a]) {
      const res = await login(svc, clientId, wrong);
      expect(res.status).toBe(401);
      expect(message(res.body)).toBe("Invalid credentials");
    }
    for (const svc of [b, a]) {
      const res = await login(svc, clientId, clientSecret);
      expect(res.status).toBe(401);
      expect(message(res.body)).toBe(LOCKED);
    }
    expect(await lockoutsOf(identityId)).toEqual(["universal-auth"]);

    advance(299);
    expect((await login(b, clientId, clientSecret)).status).toBe(401);
    advance(2);
    expect((await login(b, clientId, clientSecret)).status).toBe(200);
    expect(await lockoutsOf(identityId)).toEqual([]);
  });

  it("counts failures racing on both instances exactly: the threshold locks, not more nor fewer", async () => {
    freezeClock();
    const { clientId, clientSecret } = await locked("lock-race", { lockoutThreshold: 7 });
    const first = await Promise.all(Array.from({ length: 6 }, (_, i) => login(i % 2 ? a : b, clientId, wrong)));
    expect(first.map((r) => r.status)).toEqual(Array(6).fill(401));
    expect((await login(a, clientId, clientSecret)).status).toBe(200);
    // The success forgot those six; six more, concurrently, still leave one to go.
    await Promise.all(Array.from({ length: 6 }, (_, i) => login(i % 2 ? a : b, clientId, wrong)));
    const rows = await a.app.db
      .selectFrom("identity_ua_lockouts")
      .selectAll()
      .where("client_id", "=", clientId)
      .execute();
    expect(rows.map((r) => r.failed_attempts)).toEqual([6]);
    expect((await login(b, clientId, clientSecret)).status).toBe(200);
    await Promise.all(Array.from({ length: 7 }, (_, i) => login(i % 2 ? a : b, clientId, wrong)));
    expect(message((await login(a, clientId, clientSecret)).body)).toBe(LOCKED);
  });

  it("starts counting again once the counter reset window has passed without a failure", async () => {
    freezeClock();
    const { clientId, clientSecret } = await locked("lock-window");
    await login(a, clientId, wrong);
    await login(b, clientId, wrong);
    advance(31);
    await login(a, clientId, wrong);
    await login(b, clientId, wrong);
    expect((await login(a, clientId, clientSecret)).status).toBe(200);
  });

  it("a failure within the window keeps it open: three failures 20 s apart lock", async () => {
    freezeClock();
    const { clientId, clientSecret } = await locked("lock-sliding");
    for (let i = 0; i < 3; i++) {
      expect((await login(i % 2 ? a : b, clientId, wrong)).status).toBe(401);
      advance(20);
    }
    expect(message((await login(a, clientId, clientSecret)).body)).toBe(LOCKED);
  });

  it("does not lock when lockout is off", async () => {
    const { clientId, clientSecret } = await locked("lock-off", { lockoutEnabled: false });
    for (let i = 0; i < 5; i++) expect((await login(a, clientId, wrong)).status).toBe(401);
    expect((await login(b, clientId, clientSecret)).status).toBe(200);
    const rows = await a.app.db
      .selectFrom("identity_ua_lockouts")
      .selectAll()
      .where("client_id", "=", clientId)
      .execute();
    expect(rows).toEqual([]);
  });

  it("clear-lockouts lifts the lockout at once and says how many it cleared", async () => {
    const { identityId, clientId, clientSecret } = await locked("lock-clear", { lockoutThreshold: 1 });
    expect((await login(a, clientId, wrong)).status).toBe(401);
    expect(message((await login(b, clientId, clientSecret)).body)).toBe(LOCKED);

    const cleared = await b.endpoint("universalAuth.clearLockouts", { params: { identityId } });
    expect(cleared).toEqual({ status: 200, body: { deleted: 1 } });
    expect(await lockoutsOf(identityId)).toEqual([]);
    expect((await login(a, clientId, clientSecret)).status).toBe(200);
    expect((await b.endpoint("universalAuth.clearLockouts", { params: { identityId } })).body).toEqual({ deleted: 0 });
  });

  describe("clear-lockouts refusals", () => {
    it("answers 404 for an identity without universal auth, and 401 without a token", async () => {
      const res = await a.endpoint("identities.create", {
        body: { name: "lock-none", organizationId: a.info.orgId, role: "member" },
      });
      const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
      expect((await a.endpoint("universalAuth.clearLockouts", { params: { identityId } })).status).toBe(404);
      const anonymous = await a.endpoint("universalAuth.clearLockouts", { params: { identityId } }, { token: null });
      expect(anonymous.status).toBe(401);
    });

    it("answers 403 to a caller that may not edit identities", async () => {
      const { identityId, clientId, clientSecret } = await locked("lock-reader");
      // A member's token: members may read identities but not edit them.
      const reader = await locked("lock-reader-caller");
      await a.endpoint("identities.update", { params: { identityId: reader.identityId }, body: { role: "member" } });
      const token = endpoints["universalAuth.login"].response.parse(
        (await login(a, reader.clientId, reader.clientSecret)).body,
      ).accessToken;
      const res = await a.endpoint("universalAuth.clearLockouts", { params: { identityId } }, { token });
      expect(res.status).toBe(403);
      expect((await login(a, clientId, clientSecret)).status).toBe(200);
    });
  });
});
