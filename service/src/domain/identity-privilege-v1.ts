import type { ProjectRule } from "./project-permissions.ts";

/**
 * The v1 privilege model (secrets rules only, by project slug) and its translation to the v2
 * model, as Infisical back-fills it: secrets rules are copied onto the subjects v2 split off
 * from them, and v1 answers hide those copies again.
 */

interface V1Rules {
  permissions?: { action: string; subject: string; conditions?: Record<string, unknown> }[];
  privilegePermission?: { actions: string[]; subject: string; conditions: Record<string, unknown> };
}

/** `privilegePermission` gives one rule per action; the deprecated `permissions` one per entry. */
export function rulesFromV1({ permissions, privilegePermission }: V1Rules): ProjectRule[] {
  if (privilegePermission) {
    const { actions, subject, conditions } = privilegePermission;
    return actions.map((action) => ({ subject, action: [action], conditions, inverted: false }));
  }
  return (permissions ?? []).map(({ action, subject, conditions }) => ({
    subject,
    action: [action],
    ...(conditions && Object.keys(conditions).length > 0 && { conditions }),
    inverted: false,
  }));
}

const dynamicSecretActions: Record<string, string[]> = {
  read: ["read-root-credential"],
  create: ["create-root-credential"],
  edit: ["edit-root-credential", "lease"],
  delete: ["delete-root-credential"],
};

/**
 * The v2 rules of v1 rules: each secrets rule again with `readValue` next to `read`, and
 * copied to secret imports, secret folders (without read) and dynamic secrets.
 */
export function backfillV1Rules(rules: ProjectRule[]): ProjectRule[] {
  const added: ProjectRule[] = [];
  for (const rule of rules.filter((r) => r.subject === "secrets" && !r.inverted)) {
    const copy = (subject: string, action: string[]) => {
      if (action.length > 0) added.push({ ...rule, subject, action: [...new Set(action)] });
    };
    copy("secrets", rule.action.includes("read") ? [...rule.action, "readValue"] : rule.action);
    copy(
      "secret-imports",
      rule.action.filter((a) => ["read", "create", "edit", "delete"].includes(a)),
    );
    copy(
      "secret-folders",
      rule.action.filter((a) => ["create", "edit", "delete"].includes(a)),
    );
    copy(
      "dynamic-secrets",
      rule.action.flatMap((a) => dynamicSecretActions[a] ?? []),
    );
  }
  return [...rules, ...added];
}
