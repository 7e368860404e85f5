import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";

describe("the service's logger", () => {
  it("redacts credentials a log call passes by mistake, at any of the first three depths and in headers", () => {
    const lines: string[] = [];
    const logger = createLogger(
      { logLevel: "info", logFormat: undefined, nodeEnv: "production" },
      { write: (line: string) => lines.push(line) },
    );
    const values = {
      accessToken: "at-7f3a91c2",
      clientSecret: "cs-0b9d44e1",
      secretValue: "sv-5e2c8a77",
      jwt: "jwt-9a1b2c3d",
      iamRequestHeaders: "iam-4d5e6f70",
      rootKey: "rk-1a2b3c4d",
      authorization: "Bearer au-8e7f6a5b",
      cookie: "__Host-keyhold=ck-3c2b1a09",
    };
    logger.info(values, "top level");
    logger.info({ body: values }, "one down");
    logger.info({ request: { body: values } }, "two down");
    logger.info({ req: { headers: { authorization: "Bearer hd-11223344", cookie: "k=hd-55667788" } } }, "headers");
    const text = lines.join("");
    expect(lines).toHaveLength(4);
    expect(text).toContain('"[redacted]"');
    for (const value of [...Object.values(values), "hd-11223344", "hd-55667788"]) expect(text).not.toContain(value);
  });
});
