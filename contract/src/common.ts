import { z } from "zod";

export const Uuid = z.uuid();
export const Timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
export const NullableTimestamp = Timestamp.nullable();

/** Lowercase letters, digits and single inner hyphens. */
export function slugSchema(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, `Slug must be at least ${min} characters`)
    .max(max, `Slug must be at most ${max} characters`)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Slug may contain only lowercase letters, digits and single hyphens");
}

/** Names of resources: letters, digits, spaces, hyphens and underscores. */
export const ResourceName = z
  .string()
  .trim()
  .min(1, "Name is required")
  .max(64, "Name must be at most 64 characters")
  .regex(/^[\p{L}\p{N} _-]+$/u, "Name may contain letters, digits, spaces, hyphens and underscores");

/** A folder path: starts at "/", no trailing slash (except the root itself). */
export const SecretPath = z
  .string()
  .trim()
  .default("/")
  .transform((p) => {
    const withRoot = p.startsWith("/") ? p : `/${p}`;
    return withRoot.length > 1 ? withRoot.replace(/\/+$/, "") || "/" : withRoot;
  });

/** A folder path that may be left out: normalised like `SecretPath` when given, undefined (not "/") when not. */
export const OptionalSecretPath = z
  .string()
  .optional()
  .transform((p) => (p === undefined ? undefined : SecretPath.parse(p)));

// ---- whole numbers in requests ----

/**
 * The largest whole number a request may carry. Every count, limit, position, version and
 * lifetime in a request is kept in an `integer` column or compared with one, and PostgreSQL's
 * (Infisical's database) holds 32 bits: a larger value would be refused by the database as a
 * 5xx, where SQLite would keep it. So it is refused where it enters, with a 422 naming the field.
 */
export const MAX_WHOLE_NUMBER = 2_147_483_647;

/** A whole number in a request, from `min` to `max`, and never past what an `integer` column holds. */
export function wholeNumber(min: number, max = MAX_WHOLE_NUMBER) {
  return z.number().int().min(min).max(Math.min(max, MAX_WHOLE_NUMBER));
}

/** The same in a query string, read with `Number` (so a typed client may pass a number). */
export function queryWholeNumber(min: number, max = MAX_WHOLE_NUMBER) {
  return z.coerce.number().int().min(min).max(Math.min(max, MAX_WHOLE_NUMBER));
}

// ---- token lifetime settings shared by every identity auth method ----

export const MAX_TOKEN_SECONDS = 315_360_000; // ten years
export const DEFAULT_TOKEN_TTL = 2_592_000; // thirty days
export const ALLOW_ALL_IPS = [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }];

export const TrustedIpInputSchema = z.object({
  ipAddress: z.string().trim().min(1).describe("An IPv4 or IPv6 address or CIDR block"),
});
export const TrustedIpsInputSchema = z.array(TrustedIpInputSchema).min(1, "At least one trusted IP range is required");

export const TrustedIpRecordSchema = z
  .object({
    ipAddress: z.string(),
    type: z.enum(["ipv4", "ipv6"]).optional(),
    prefix: z.number().int().nullable().optional(),
  })
  .loose();
export type TrustedIpRecord = z.infer<typeof TrustedIpRecordSchema>;

const Seconds = wholeNumber(0, MAX_TOKEN_SECONDS);
const UsesLimit = wholeNumber(0).describe("Requests allowed per token; 0 means unlimited");

/** Attach bodies: every lifetime field has Infisical's default. */
export const tokenLifetimeDefaults = {
  accessTokenTrustedIps: TrustedIpsInputSchema.default(ALLOW_ALL_IPS),
  accessTokenTTL: Seconds.default(DEFAULT_TOKEN_TTL).describe("Lifetime of issued access tokens, in seconds"),
  accessTokenMaxTTL: Seconds.default(DEFAULT_TOKEN_TTL).describe("Longest lifetime through renewals, in seconds"),
  accessTokenNumUsesLimit: UsesLimit.default(0),
};

/** Update bodies: every lifetime field optional, nothing defaulted. */
export const tokenLifetimeOptional = {
  accessTokenTrustedIps: TrustedIpsInputSchema.optional(),
  accessTokenTTL: Seconds.optional(),
  accessTokenMaxTTL: Seconds.optional(),
  accessTokenNumUsesLimit: UsesLimit.optional(),
};

const TTL_ABOVE_MAX = "The access token TTL cannot exceed the access token max TTL";

/**
 * The TTL rule: a token's TTL may not exceed the max TTL. On attach that holds even for a max of 0;
 * on a configuration being updated (the values it will have), a max of 0 sets no limit.
 */
export function ttlWithinMax(ttl: number, maxTtl: number, on: "attach" | "update"): boolean {
  return ttl <= maxTtl || (on === "update" && maxTtl === 0);
}

/** On attach the TTL may never exceed the max TTL. */
export function ttlWithinMaxOnAttach<T extends z.ZodType<{ accessTokenTTL: number; accessTokenMaxTTL: number }>>(
  schema: T,
) {
  return schema.refine((v) => ttlWithinMax(v.accessTokenTTL, v.accessTokenMaxTTL, "attach"), {
    message: TTL_ABOVE_MAX,
    path: ["accessTokenTTL"],
  });
}

/** On update the check applies only when both values are given and non-zero. */
export function ttlWithinMaxOnUpdate<
  T extends z.ZodType<{ accessTokenTTL?: number | undefined; accessTokenMaxTTL?: number | undefined }>,
>(schema: T) {
  return schema.refine((v) => ttlWithinMax(v.accessTokenTTL ?? 0, v.accessTokenMaxTTL ?? 0, "update"), {
    message: TTL_ABOVE_MAX,
    path: ["accessTokenTTL"],
  });
}

/** Fields returned in every auth-method configuration record. */
export const authConfigRecordFields = {
  id: Uuid,
  identityId: Uuid,
  accessTokenTTL: z.number().int(),
  accessTokenMaxTTL: z.number().int(),
  accessTokenNumUsesLimit: z.number().int(),
  accessTokenTrustedIps: z.array(TrustedIpRecordSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/**
 * A whole number carried in a query string: a string on the wire (so a typed client builds
 * the query from strings), a number once parsed, the default applied when left out.
 */
export function queryInteger(min: number, max: number, fallback: number) {
  return z
    .string()
    .trim()
    .regex(/^\d+$/, "Must be a whole number")
    .default(String(fallback))
    .transform(Number)
    .pipe(wholeNumber(min, max));
}

export const IdentityIdParams = z.object({ identityId: Uuid.describe("The identity") });
