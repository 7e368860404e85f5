import { z } from "zod";
import { authConfigRecordFields, IdentityIdParams } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

export const IdentityAwsAuthSchema = z.object({
  ...authConfigRecordFields,
  type: z.string(),
  stsEndpoint: z.string(),
  allowedPrincipalArns: z.string(),
  allowedAccountIds: z.string(),
  accessTokenPeriod: z.number().int().optional(),
});
export type IdentityAwsAuth = z.infer<typeof IdentityAwsAuthSchema>;

export const awsAuthEndpoints = [
  defineEndpoint({
    id: "awsAuth.revoke",
    method: "DELETE",
    path: "/api/v1/auth/aws-auth/identities/{identityId}",
    summary: "Remove AWS auth from an identity, revoking every token it issued",
    params: IdentityIdParams,
    response: z.object({ identityAwsAuth: IdentityAwsAuthSchema }),
    permission: { scope: "org", subject: "identity", action: "edit" },
  }),
] as const;
