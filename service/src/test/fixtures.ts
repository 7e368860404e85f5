import { endpoints } from "@keyhold/contract";
import { expect } from "vitest";
import type { TestService } from "./harness.ts";

/** Creates an identity through the API, attaches token auth and issues a token for it. */
export async function identityWithToken(
  svc: TestService,
  options: { name?: string; role?: string; attach?: Record<string, unknown> } = {},
): Promise<{ identityId: string; token: string }> {
  const created = await svc.endpoint("identities.create", {
    body: { name: options.name ?? "worker", organizationId: svc.info.orgId, role: options.role ?? "no-access" },
  });
  expect(created.status).toBe(200);
  const identityId = endpoints["identities.create"].response.parse(created.body).identity.id;
  const attached = await svc.endpoint("tokenAuth.attach", { params: { identityId }, body: options.attach ?? {} });
  expect(attached.status).toBe(200);
  const issued = await svc.endpoint("tokenAuth.createToken", { params: { identityId }, body: {} });
  expect(issued.status).toBe(200);
  return { identityId, token: endpoints["tokenAuth.createToken"].response.parse(issued.body).accessToken };
}

/** The ids of every access-token row an identity has in the database. */
export async function tokenRowsOf(svc: TestService, identityId: string): Promise<{ id: string }[]> {
  return svc.app.db.selectFrom("identity_access_tokens").select("id").where("identity_id", "=", identityId).execute();
}
