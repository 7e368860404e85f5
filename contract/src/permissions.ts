import { z } from "zod";
import { NullableTimestamp, Timestamp } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * Project permission subjects and the actions each accepts (the classic set plus
 * the secret read split). The permission builder renders from this table.
 */
export const projectPermissionActions = {
  secrets: ["read", "describeSecret", "readValue", "create", "edit", "delete"],
  "secret-folders": ["read", "create", "edit", "delete"],
  "secret-imports": ["read", "create", "edit", "delete"],
  "secret-rollback": ["read", "create"],
  "dynamic-secrets": [
    "read-root-credential",
    "create-root-credential",
    "edit-root-credential",
    "delete-root-credential",
    "lease",
  ],
  role: ["read", "create", "edit", "delete"],
  member: ["read", "create", "edit", "delete", "grant-privileges"],
  groups: ["read", "create", "edit", "delete", "grant-privileges"],
  identity: [
    "read",
    "create",
    "edit",
    "delete",
    "grant-privileges",
    "revoke-auth",
    "create-token",
    "get-token",
    "delete-token",
  ],
  settings: ["read", "create", "edit", "delete"],
  integrations: ["read", "create", "edit", "delete"],
  webhooks: ["read", "create", "edit", "delete"],
  "service-tokens": ["read", "create", "edit", "delete"],
  environments: ["read", "create", "edit", "delete"],
  tags: ["read", "create", "edit", "delete"],
  "audit-logs": ["read"],
  "ip-allowlist": ["read", "create", "edit", "delete"],
  workspace: ["edit", "delete"],
  "secret-approval": ["read", "create", "edit", "delete"],
  "secret-rotation": ["read", "create", "edit", "delete"],
  kms: ["edit"],
} as const satisfies Record<string, readonly string[]>;

export type ProjectSubject = keyof typeof projectPermissionActions;
export const projectSubjects = Object.keys(projectPermissionActions) as ProjectSubject[];

/** Which condition fields each subject accepts; other subjects take none. */
export const projectPermissionConditionFields: Partial<Record<ProjectSubject, readonly string[]>> = {
  secrets: ["environment", "secretPath", "secretName", "secretTags", "eventType"],
  "secret-folders": ["environment", "secretPath"],
  "secret-imports": ["environment", "secretPath"],
  "dynamic-secrets": ["environment", "secretPath"],
  "secret-rotation": ["environment", "secretPath"],
  identity: ["identityId"],
  "audit-logs": ["eventType"],
};

export const ConditionOperatorSchema = z
  .object({
    $eq: z.string().optional(),
    $ne: z.string().optional(),
    $in: z.array(z.string()).min(1).optional(),
    $glob: z.string().min(1).optional(),
  })
  .strict()
  .refine((o) => Object.keys(o).length > 0, "A condition needs an operator");

export const ConditionValueSchema = z.union([z.string(), ConditionOperatorSchema]);
export const ConditionsSchema = z.record(z.string(), ConditionValueSchema);

/** The one template a condition value may hold: the id of the identity the rule applies to. */
export const identityTemplate = /^\{\{\s*identity\.id\s*\}\}$/;

/** Checks a rule's subject, actions, condition fields and templates against the tables above. */
export function refineRuleSubject(
  rule: { subject: string; action: string | string[]; conditions?: Record<string, unknown> },
  ctx: z.RefinementCtx,
): void {
  const allowed = projectPermissionActions[rule.subject as ProjectSubject] as readonly string[] | undefined;
  if (!allowed) {
    ctx.addIssue({ code: "custom", path: ["subject"], message: `Unknown permission subject "${rule.subject}"` });
    return;
  }
  for (const action of [rule.action].flat()) {
    if (!allowed.includes(action)) {
      ctx.addIssue({
        code: "custom",
        path: ["action"],
        message: `Action "${action}" does not apply to "${rule.subject}"`,
      });
    }
  }
  const templates = JSON.stringify(rule.conditions ?? {}).match(/\{\{[^}]*\}\}/g) ?? [];
  for (const template of templates.filter((t) => !identityTemplate.test(t))) {
    ctx.addIssue({
      code: "custom",
      path: ["conditions"],
      message: `Unknown template ${template}: conditions may use only {{identity.id}}`,
    });
  }
  const fields = projectPermissionConditionFields[rule.subject as ProjectSubject] ?? [];
  for (const key of Object.keys(rule.conditions ?? {})) {
    if (!fields.includes(key)) {
      ctx.addIssue({
        code: "custom",
        path: ["conditions", key],
        message: `Condition "${key}" does not apply to "${rule.subject}"`,
      });
    }
  }
}

/** A permission rule as sent: `action` may be one action or a list. */
export const PermissionRuleInputSchema = z
  .object({
    subject: z.string().describe('Project subject, for example "secrets" or "role"'),
    action: z.union([z.string(), z.array(z.string()).min(1)]),
    inverted: z.boolean().optional().describe("A deny rule when true"),
    conditions: ConditionsSchema.optional(),
  })
  .superRefine(refineRuleSubject);
export type PermissionRuleInput = z.input<typeof PermissionRuleInputSchema>;

/** A permission rule as returned: always unpacked, `action` a list. */
export const PermissionRuleSchema = z
  .object({
    subject: z.string(),
    action: z.union([z.string(), z.array(z.string())]),
    inverted: z.boolean().optional(),
    conditions: z.unknown().optional(),
  })
  .loose();
export type PermissionRule = z.infer<typeof PermissionRuleSchema>;

export const orgRoles = ["admin", "member", "no-access"] as const;
export const reservedProjectRoleSlugs = [
  "admin",
  "member",
  "viewer",
  "no-access",
  "custom",
  "ssh-host-bootstrapper",
  "cryptographic-operator",
] as const;

/**
 * A rule in CASL's packed form (`[actions, subject, conditions?, inverted?]`, actions joined by
 * commas), which Infisical's permissions endpoint sends, as the unpacked object.
 */
function unpackRule(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const [action, subject, conditions, inverted] = value as [unknown, unknown, unknown, unknown];
  return {
    subject: typeof subject === "string" ? subject.split(",")[0] : subject,
    action: typeof action === "string" ? action.split(",") : action,
    ...(conditions && typeof conditions === "object" ? { conditions } : {}),
    inverted: inverted === 1 || inverted === true,
  };
}

/** A rule as read from any server: unpacked objects, or CASL-packed arrays turned into them. */
export const ReadablePermissionRuleSchema = z.preprocess(unpackRule, PermissionRuleSchema);

/** A role of the caller's membership; Infisical's own answer may carry only `role`. */
export const ProjectPermissionsMembershipRoleSchema = z
  .object({
    id: z.string().optional(),
    role: z.string(),
    customRoleId: z.string().nullable().optional(),
    customRoleSlug: z.string().nullable().optional(),
    isTemporary: z.boolean().optional(),
    temporaryMode: z.string().nullable().optional(),
    temporaryRange: z.string().nullable().optional(),
    temporaryAccessStartTime: NullableTimestamp.optional(),
    temporaryAccessEndTime: NullableTimestamp.optional(),
    createdAt: Timestamp.optional(),
    updatedAt: Timestamp.optional(),
  })
  .loose();

/** The caller's own membership in the project, with its roles (temporary ones included). */
export const ProjectPermissionsMembershipSchema = z
  .object({
    id: z.string(),
    projectId: z.string().optional(),
    identityId: z.string().nullable().optional(),
    userId: z.string().nullable().optional(),
    createdAt: Timestamp.optional(),
    updatedAt: Timestamp.optional(),
    roles: z.array(ProjectPermissionsMembershipRoleSchema),
  })
  .loose();

export const ProjectPermissionsSchema = z.object({
  permissions: z
    .array(ReadablePermissionRuleSchema)
    .describe("The caller's effective rules in the project: active roles and additional privileges"),
  membership: ProjectPermissionsMembershipSchema,
});
export type ProjectPermissionsView = z.infer<typeof ProjectPermissionsSchema>;

export const permissionEndpoints = [
  defineEndpoint({
    id: "projects.getPermissions",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/permissions",
    summary: "The caller's own effective permissions in a project, and its membership",
    params: z.object({ workspaceId: z.string().trim().min(1).describe("The project id") }),
    response: z.object({ data: ProjectPermissionsSchema }),
  }),
] as const;
