import {
  type Endpoint,
  ErrorBodySchema,
  endpointList,
  errorNames,
  LONE_SURROGATE_MESSAGE,
  NoBody,
  NoParams,
  NUL_CHARACTER_MESSAGE,
  pathParamNames,
} from "@keyhold/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CSRF, JSON_CSRF, logIn, type RawResponse, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { type RecordingUpstream, startRecordingUpstream } from "../test/recording-upstream.ts";
import { fakeAccessToken, membership } from "../test/samples.ts";

/**
 * Text no database can store (NUL, an unpaired surrogate) is refused at the BFF's edge with the
 * service's 422, for every forwarded endpoint and every field its schemas name, before anything
 * is sent upstream: Infisical on PostgreSQL answers such input with a 500. Other control
 * characters are forwarded, and never make the BFF itself answer 5xx. So is a number past what
 * PostgreSQL's 32-bit `integer` holds, which Infisical would also try to store.
 */

let upstream: RecordingUpstream;
let bff: TestBff;
let cookie: string;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  bff = await startBff(testConfig({ upstreamOrigin: upstream.origin }));
  upstream.respond(() => ({ status: 200, body: { identity: membership() } }));
  ({ cookie } = await logIn(bff, fakeAccessToken()));
});
afterAll(async () => {
  await bff.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond(() => ({ status: 404, body: { statusCode: 404, message: "Not found", error: "NotFound" } }));
});

const forwarded = (endpointList as readonly Endpoint[]).filter((e) => e.auth !== "none");

function fieldsOf(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: object };
  return Object.keys(json.properties ?? {});
}

/** The fields that hold a number once parsed (a query's arrive as text). */
function numberFieldsOf(schema: z.ZodType): string[] {
  type Property = { type?: unknown; anyOf?: Property[] };
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as {
    properties?: Record<string, Property>;
  };
  const numeric = (p: Property): boolean =>
    p.type === "integer" || p.type === "number" || (p.anyOf ?? []).some(numeric);
  return Object.entries(json.properties ?? {})
    .filter(([, property]) => numeric(property))
    .map(([name]) => name);
}

/** The endpoint's path with every parameter valid (a uuid is a valid id of any kind) but those given raw. */
function pathOf(endpoint: Endpoint, raw: Record<string, string> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => raw[name] ?? "00000000-0000-4000-8000-000000000000");
}

function call(endpoint: Endpoint, path: string, body?: unknown): Promise<RawResponse> {
  const hasBody = endpoint.body !== NoBody;
  return bff.send({
    method: endpoint.method,
    path,
    headers: { ...(hasBody ? JSON_CSRF : CSRF), cookie },
    ...(hasBody && { body: JSON.stringify(body ?? {}) }),
  });
}

function expectRefused(res: RawResponse, field: (string | number)[], message: string): void {
  expect(res.status, res.text).toBe(422);
  const body = ErrorBodySchema.parse(res.json);
  expect(body.error).toBe(errorNames.validation);
  expect(body.message).toContainEqual({ code: "custom", path: field, message });
  expect(upstream.requests).toEqual([]);
}

describe.each(forwarded.map((e) => [`${e.method} ${e.path}`, e] as const))("%s", (_, endpoint) => {
  const params = pathParamNames(endpoint.path);
  const query = endpoint.query === NoParams ? [] : fieldsOf(endpoint.query);
  const body = endpoint.body === NoBody ? [] : fieldsOf(endpoint.body);

  it("refuses NUL in every path and query parameter and body field, naming it, and sends nothing upstream", async () => {
    for (const name of params) {
      expectRefused(await call(endpoint, pathOf(endpoint, { [name]: "a%00b" })), [name], NUL_CHARACTER_MESSAGE);
    }
    for (const name of query) {
      expectRefused(await call(endpoint, `${pathOf(endpoint)}?${name}=a%00b`), [name], NUL_CHARACTER_MESSAGE);
    }
    for (const name of body) {
      expectRefused(await call(endpoint, pathOf(endpoint), { [name]: "a\0b" }), [name], NUL_CHARACTER_MESSAGE);
      expectRefused(
        await call(endpoint, pathOf(endpoint), { [name]: [{ nested: "\uD800" }] }),
        [name, 0, "nested"],
        LONE_SURROGATE_MESSAGE,
      );
    }
  });

  const numbers = {
    query: endpoint.query === NoParams ? [] : numberFieldsOf(endpoint.query),
    body: endpoint.body === NoBody ? [] : numberFieldsOf(endpoint.body),
  };
  it.skipIf(numbers.query.length + numbers.body.length === 0)(
    "refuses 2^31 in every number field, naming it, and sends nothing upstream",
    async () => {
      const answers = [
        ...numbers.query.map(async (name) => [name, await call(endpoint, `${pathOf(endpoint)}?${name}=${2 ** 31}`)]),
        ...numbers.body.map(async (name) => [name, await call(endpoint, pathOf(endpoint), { [name]: 2 ** 31 })]),
      ] as Promise<[string, RawResponse]>[];
      for (const [name, res] of await Promise.all(answers)) {
        expect(res.status, res.text).toBe(422);
        const issues = ErrorBodySchema.parse(res.json).message;
        expect(issues).toContainEqual(expect.objectContaining({ code: "too_big", path: [name] }));
      }
      expect(upstream.requests).toEqual([]);
    },
  );

  it("forwards or refuses other control characters, never answering 5xx itself", async () => {
    for (const text of ["\t", "\n", "\x01", "\x7f"]) {
      const encoded = encodeURIComponent(`a${text}b`);
      const answers = [
        ...params.map((name) => call(endpoint, pathOf(endpoint, { [name]: encoded }))),
        ...query.map((name) => call(endpoint, `${pathOf(endpoint)}?${name}=${encoded}`)),
        ...body.map((name) => call(endpoint, pathOf(endpoint), { [name]: `a${text}b` })),
      ];
      for (const res of await Promise.all(answers)) expect(res.status, res.text).toBeLessThan(500);
    }
  });
});

describe("sign-in", () => {
  it.each([
    [{ accessToken: "a\0b" }, ["accessToken"]],
    [{ clientId: "a\0b", clientSecret: "s" }, ["clientId"]],
    [{ clientId: "c", clientSecret: "a\0b" }, ["clientSecret"]],
  ])("refuses NUL in %j, naming the field, and sends nothing upstream", async (credentials, field) => {
    const res = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: JSON_CSRF,
      body: JSON.stringify(credentials),
    });
    expectRefused(res, field, NUL_CHARACTER_MESSAGE);
  });
});
