import { z } from "zod";
import { authMethodEndpoints } from "./auth-method.ts";
import {
  authConfigRecordFields,
  tokenLifetimeDefaults,
  tokenLifetimeOptional,
  TrustedIpRecordSchema,
  TrustedIpsInputSchema,
  ALLOW_ALL_IPS,
  ttlWithinMaxOnAttach,
  ttlWithinMaxOnUpdate,
  Uuid,
} from "./common.ts";

export const IdentityUniversalAuthSchema = z.object({
  ...authConfigRecordFields,
  clientId: Uuid,
  clientSecretTrustedIps: z.array(TrustedIpRecordSchema),
  accessTokenPeriod: z.number().int(),
  lockoutEnabled: z.boolean(),
  lockoutThreshold: z.number().int(),
  lockoutDurationSeconds: z.number().int(),
  lockoutCounterResetSeconds: z.number().int(),
});
export type IdentityUniversalAuth = z.infer<typeof IdentityUniversalAuthSchema>;

const lockout = {
  lockoutEnabled: z.boolean(),
  lockoutThreshold: z.number().int().min(1).max(30),
  lockoutDurationSeconds: z.number().int().min(30).max(86_400),
  lockoutCounterResetSeconds: z.number().int().min(5).max(3_600),
};

export const AttachUniversalAuthBodySchema = ttlWithinMaxOnAttach(
  z.object({
    clientSecretTrustedIps: TrustedIpsInputSchema.default(ALLOW_ALL_IPS),
    lockoutEnabled: lockout.lockoutEnabled.default(true),
    lockoutThreshold: lockout.lockoutThreshold.default(3),
    lockoutDurationSeconds: lockout.lockoutDurationSeconds.default(300),
    lockoutCounterResetSeconds: lockout.lockoutCounterResetSeconds.default(30),
    ...tokenLifetimeDefaults,
  }),
);

export const UpdateUniversalAuthBodySchema = ttlWithinMaxOnUpdate(
  z.object({
    clientSecretTrustedIps: TrustedIpsInputSchema.optional(),
    lockoutEnabled: lockout.lockoutEnabled.optional(),
    lockoutThreshold: lockout.lockoutThreshold.optional(),
    lockoutDurationSeconds: lockout.lockoutDurationSeconds.optional(),
    lockoutCounterResetSeconds: lockout.lockoutCounterResetSeconds.optional(),
    ...tokenLifetimeOptional,
  }),
);

export const universalAuthEndpoints = authMethodEndpoints({
  key: "universalAuth",
  name: "universal-auth",
  label: "universal auth",
  envelope: "identityUniversalAuth",
  record: IdentityUniversalAuthSchema,
  attach: AttachUniversalAuthBodySchema,
  update: UpdateUniversalAuthBodySchema,
});
