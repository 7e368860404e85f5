import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { createQueryClient } from "./query-client";
import { getToasts } from "./toast";

const failure = new ApiError({ reqId: "r", statusCode: 503, error: "Service Unavailable", message: "Busy" });

async function refreshFails(meta?: Record<string, unknown>) {
  const client = createQueryClient({ onUnauthorized: vi.fn() });
  const queryKey = ["counts", Math.random()];
  client.setQueryData(queryKey, 3);
  const before = getToasts().length;
  await client
    .fetchQuery({
      queryKey,
      queryFn: () => Promise.reject(failure),
      retry: false,
      staleTime: 0,
      ...(meta ? { meta } : {}),
    })
    .catch(() => undefined);
  return getToasts().slice(before);
}

describe("createQueryClient", () => {
  it("says when a background refresh of data on screen fails", async () => {
    expect(await refreshFails()).toEqual([expect.objectContaining({ tone: "error", title: "Could not refresh data" })]);
  });

  it("says nothing for a query whose errors are shown where it is read", async () => {
    expect(await refreshFails({ errorShownInPlace: true })).toEqual([]);
  });
});
