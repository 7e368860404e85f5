import { z } from "zod";
import { authMethodEndpoints } from "./auth-method.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
} from "./common.ts";

export const IdentityAwsAuthSchema = z.object({
  ...authConfigRecordFields,
  type: z.string(),
  stsEndpoint: z.string(),
  allowedPrincipalArns: z.string(),
  allowedAccountIds: z.string(),
  accessTokenPeriod: z.number().int().optional(),
});
export type IdentityAwsAuth = z.infer<typeof IdentityAwsAuthSchema>;

const StsEndpoint = z.url().describe("Where the signed GetCallerIdentity request is sent");

export const AttachAwsAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    stsEndpoint: StsEndpoint.default("https://sts.amazonaws.com/"),
    allowedPrincipalArns: z.string().trim().default("").describe("Comma-separated ARNs; globs allowed"),
    allowedAccountIds: z.string().trim().default("").describe("Comma-separated account ids"),
    ...tokenLifetimeDefaults,
  }),
);

export const UpdateAwsAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    stsEndpoint: StsEndpoint.optional(),
    allowedPrincipalArns: z.string().trim().optional(),
    allowedAccountIds: z.string().trim().optional(),
    ...tokenLifetimeOptional,
  }),
);

export const awsAuthEndpoints = authMethodEndpoints({
  key: "awsAuth",
  name: "aws-auth",
  label: "AWS auth",
  envelope: "identityAwsAuth",
  record: IdentityAwsAuthSchema,
  attach: AttachAwsAuthBodySchema,
  update: UpdateAwsAuthBodySchema,
});
