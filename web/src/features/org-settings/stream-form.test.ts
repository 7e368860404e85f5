import type { AuditLogStream } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { formPathOfIssue, StreamFormSchema, toCreateBody, toStreamFormValues, toUpdateBody } from "./stream-form";

const stream: AuditLogStream = {
  id: "e87aaa83-1a34-4322-a891-1151e4bf69b2",
  orgId: "org",
  createdAt: "2026-11-24T23:19:34.361Z",
  updatedAt: "2026-11-24T23:19:34.361Z",
  streamMode: "batch",
  filters: null,
  provider: "custom",
  credentials: { url: "https://logs.example.com/in", headers: [{ key: "X-Api-Key", value: "******" }] },
};

const issues = (input: unknown) =>
  StreamFormSchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("the stream form", () => {
  it("starts an edit from the stream's URL and header names, never a value", () => {
    expect(toStreamFormValues(stream)).toEqual({
      url: "https://logs.example.com/in",
      headers: [{ key: "X-Api-Key", value: "", storedKey: "X-Api-Key" }],
    });
    expect(toStreamFormValues()).toEqual({ url: "", headers: [] });
  });

  it("sends the mask for a stored value left blank, so the server keeps it", () => {
    const values = StreamFormSchema.parse({
      url: "https://logs.example.com/in",
      headers: [
        { key: "X-Api-Key", value: "", storedKey: "X-Api-Key" },
        { key: "X-Team", value: "platform", storedKey: null },
      ],
    });
    expect(toUpdateBody(values)).toEqual({
      credentials: {
        url: "https://logs.example.com/in",
        headers: [
          { key: "X-Api-Key", value: "******" },
          { key: "X-Team", value: "platform" },
        ],
      },
    });
  });

  it("asks for a value once a stored header is renamed, or for a new header", () => {
    expect(
      issues({ url: "https://a.example", headers: [{ key: "X-Renamed", value: "", storedKey: "X-Api-Key" }] }),
    ).toEqual(["headers.0.value: Enter the header's value"]);
    expect(issues({ url: "https://a.example", headers: [{ key: "X-New", value: "", storedKey: null }] })).toEqual([
      "headers.0.value: Enter the header's value",
    ]);
  });

  it("refuses what the service would refuse", () => {
    expect(issues({ url: "", headers: [] })).toEqual(["url: Enter the URL that receives the events"]);
    expect(issues({ url: "ftp://files.example/in", headers: [] })).toEqual(["url: Use an http:// or https:// URL"]);
    expect(
      issues({
        url: "https://a.example",
        headers: [
          { key: "X-A", value: "1", storedKey: null },
          { key: "x-a", value: "2", storedKey: null },
        ],
      }),
    ).toEqual(["headers.1.key: This header is already set above"]);
    expect(issues({ url: "https://a.example", headers: [{ key: "X-A", value: "a\r\nb", storedKey: null }] })).toEqual([
      "headers.0.value: Header values cannot contain newlines or carriage returns",
    ]);
  });

  it("creates with the typed headers", () => {
    const values = StreamFormSchema.parse({
      url: " https://logs.example.com/in ",
      headers: [{ key: " X-Api-Key ", value: "k-1", storedKey: null }],
    });
    expect(toCreateBody(values)).toEqual({
      credentials: { url: "https://logs.example.com/in", headers: [{ key: "X-Api-Key", value: "k-1" }] },
    });
  });

  it("puts the server's issues about the credentials on the form's fields", () => {
    expect(formPathOfIssue("credentials.url")).toBe("url");
    expect(formPathOfIssue("credentials.headers.0.value")).toBe("headers.0.value");
  });
});
