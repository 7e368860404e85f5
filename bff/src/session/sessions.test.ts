import { describe, expect, it } from "vitest";
import { defaultTouchEveryMs, Sessions } from "./sessions.ts";
import { MemorySessionStore, type Session } from "./store.ts";

const fields = {
  accessToken: "token",
  identity: { id: "0b7a3f9e-2c4d-4e6f-8a1b-3c5d7e9f1a2b", name: "admin", role: "admin" },
  orgId: "org",
};

/** A store whose reads wait for a gate, to put a sign-out between a read and its write-back. */
class GatedStore extends MemorySessionStore {
  gate: Promise<void> = Promise.resolve();
  override async get(id: string): Promise<Session | undefined> {
    const session = await super.get(id);
    await this.gate;
    return session;
  }
}

/** A store that counts write-backs. */
class CountingStore extends MemorySessionStore {
  refreshes = 0;
  override async refresh(session: Session, expiresAt: number): Promise<boolean> {
    this.refreshes++;
    return super.refresh(session, expiresAt);
  }
}

describe("Sessions", () => {
  it("keeps a session ended when a sign-out lands while a request is resuming it", async () => {
    let now = 1_000_000;
    const store = new GatedStore(() => now);
    const sessions = new Sessions(store, { idleMs: 60_000, absoluteMs: 3_600_000 }, () => now);
    const session = await sessions.create(fields);
    // The stored last use is old enough that this request writes it back.
    now += defaultTouchEveryMs(60_000);

    let open = () => {};
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const inFlight = sessions.resume(session.id);
    await sessions.end(session.id);
    open();

    expect(await inFlight).toBeUndefined();
    store.gate = Promise.resolve();
    expect(await sessions.resume(session.id)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("slides the idle deadline on each use", async () => {
    let now = 1_000_000;
    const sessions = new Sessions(new MemorySessionStore(() => now), { idleMs: 1_000, absoluteMs: 10_000 }, () => now);
    const session = await sessions.create(fields);
    now += 900;
    expect(await sessions.resume(session.id)).toMatchObject({ lastUsedAt: now });
    now += 900;
    expect(await sessions.resume(session.id)).toBeDefined();
    now += 1_001;
    expect(await sessions.resume(session.id)).toBeUndefined();
  });

  it("keeps a session ended when a sign-out lands while a request that only reads is resuming it", async () => {
    const store = new GatedStore();
    const sessions = new Sessions(store, { idleMs: 60_000, absoluteMs: 3_600_000 }, Date.now);
    const session = await sessions.create(fields);

    let open = () => {};
    store.gate = new Promise((resolve) => {
      open = resolve;
    });
    const inFlight = sessions.resume(session.id);
    await sessions.end(session.id);
    open();

    // The request read its session before the sign-out, and writes nothing back...
    expect(await inFlight).toMatchObject({ id: session.id });
    store.gate = Promise.resolve();
    // ...so the sign-out stays final.
    expect(await sessions.resume(session.id)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("writes the last use back at most once per touch interval", async () => {
    let now = 1_000_000;
    const store = new CountingStore(() => now);
    const sessions = new Sessions(store, { idleMs: 60_000, absoluteMs: 3_600_000, touchEveryMs: 1_000 }, () => now);
    const session = await sessions.create(fields);
    for (let i = 0; i < 100; i++) {
      now += 25;
      expect(await sessions.resume(session.id)).toBeDefined();
    }
    // 2.5 s of requests every 25 ms: written back at 1 s and 2 s only.
    expect(store.refreshes).toBe(2);
    expect(await store.get(session.id)).toMatchObject({ lastUsedAt: 1_002_000 });
  });

  it("ends an idle session exactly the idle timeout after a use that was written back", async () => {
    let now = 0;
    const sessions = new Sessions(
      new MemorySessionStore(() => now),
      { idleMs: 1_000, absoluteMs: 60_000, touchEveryMs: 100 },
      () => now,
    );
    const session = await sessions.create(fields);
    now = 99; // inside the touch interval: read only
    expect(await sessions.resume(session.id)).toMatchObject({ lastUsedAt: 0 });
    now = 999; // still within the idle timeout of the stored use, and written back
    expect(await sessions.resume(session.id)).toMatchObject({ lastUsedAt: 999 });
    now = 1_998;
    expect(await sessions.resume(session.id)).toMatchObject({ lastUsedAt: 1_998 });
    now = 1_998 + 1_000;
    expect(await sessions.resume(session.id)).toBeUndefined();
  });

  it("never lets an unwritten use keep a session past the idle timeout", async () => {
    let now = 1_000_000;
    const sessions = new Sessions(
      new MemorySessionStore(() => now),
      { idleMs: 1_000, absoluteMs: 60_000, touchEveryMs: 100 },
      () => now,
    );
    const session = await sessions.create(fields);
    now += 50; // read only, not written back
    expect(await sessions.resume(session.id)).toBeDefined();
    now = 1_000_000 + 1_000;
    // 950 ms after the last use (within one touch interval of the idle timeout): ended.
    expect(await sessions.resume(session.id)).toBeUndefined();
  });

  it("ends a session in constant use at the absolute timeout", async () => {
    let now = 1_000_000;
    const sessions = new Sessions(
      new MemorySessionStore(() => now),
      { idleMs: 1_000, absoluteMs: 5_000, touchEveryMs: 100 },
      () => now,
    );
    const session = await sessions.create(fields);
    while (now < 1_000_000 + 5_000 - 10) {
      now += 10;
      expect(await sessions.resume(session.id)).toBeDefined();
    }
    now = 1_000_000 + 5_000;
    expect(await sessions.resume(session.id)).toBeUndefined();
  });

  it("writes back at most every 15 s, and more often for short idle timeouts", () => {
    expect(defaultTouchEveryMs(15 * 60_000)).toBe(15_000);
    expect(defaultTouchEveryMs(8 * 60 * 60_000)).toBe(15_000);
    expect(defaultTouchEveryMs(60_000)).toBe(1_000);
  });
});
