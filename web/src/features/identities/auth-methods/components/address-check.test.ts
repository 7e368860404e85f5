import { describe, expect, it } from "vitest";
import { howRead } from "./address-check";

describe("howRead", () => {
  it("says the connection was used when the BFF trusts no proxy", () => {
    expect(
      howRead({ address: "192.0.2.1", connectedFrom: "192.0.2.1", trustedProxies: [], viaTrustedProxy: false }),
    ).toMatch(/^Read from the connection: .*KEYHOLD_TRUSTED_PROXIES is not set/);
  });

  it("names the trusted proxy whose X-Forwarded-For gave the address", () => {
    expect(
      howRead({
        address: "192.0.2.1",
        connectedFrom: "10.0.0.5",
        trustedProxies: ["10.0.0.0/8", "::1/128"],
        viaTrustedProxy: true,
      }),
    ).toBe(
      "Read from the X-Forwarded-For of 10.0.0.5, a trusted proxy (KEYHOLD_TRUSTED_PROXIES: 10.0.0.0/8, ::1/128).",
    );
  });

  it("says when the connection is not one of the trusted proxies", () => {
    expect(
      howRead({
        address: "192.0.2.1",
        connectedFrom: "192.0.2.1",
        trustedProxies: ["10.0.0.0/8"],
        viaTrustedProxy: false,
      }),
    ).toBe(
      "Read from the connection (192.0.2.1), which is not one of the trusted proxies (KEYHOLD_TRUSTED_PROXIES: 10.0.0.0/8).",
    );
  });
});
