import { describe, expect, it } from "vitest";
import { Sessions } from "./sessions.ts";
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

describe("Sessions", () => {
  it("keeps a session ended when a sign-out lands while a request is resuming it", async () => {
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
});
