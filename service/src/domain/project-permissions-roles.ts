import { type ProjectSubject, projectPermissionActions } from "@keyhold/contract";

/** A rule as the API returns it: unpacked, `action` always a list. */
// A type alias (not an interface) so that it is assignable to the contract's open rule schema.
export type ProjectRule = {
  subject: string;
  action: string[];
  conditions?: Record<string, unknown>;
  inverted?: boolean;
};

export type PredefinedProjectRoleSlug = "admin" | "member" | "viewer" | "no-access";

export interface PredefinedProjectRole {
  slug: PredefinedProjectRoleSlug;
  name: string;
  description: string;
  permissions: ProjectRule[];
}

const crud = ["read", "create", "edit", "delete"];

/** Every action of every subject: what a project admin holds. */
const everything: ProjectRule[] = Object.entries(projectPermissionActions).map(([subject, actions]) => ({
  subject,
  action: [...actions],
}));

/**
 * Infisical's "member" role as data: secrets and their neighbours read/write, project
 * administration (members, roles) mostly read-only, no project edit or delete.
 */
const member: Partial<Record<ProjectSubject, string[]>> = {
  secrets: ["read", "describeSecret", "readValue", "create", "edit", "delete"],
  "secret-folders": crud,
  "secret-imports": crud,
  "dynamic-secrets": [...projectPermissionActions["dynamic-secrets"]],
  "secret-approval": ["read"],
  "secret-rotation": ["read"],
  "secret-rollback": ["read", "create"],
  member: ["read", "create"],
  groups: ["read"],
  integrations: crud,
  webhooks: crud,
  identity: crud,
  "service-tokens": crud,
  settings: crud,
  environments: crud,
  tags: crud,
  role: ["read"],
  "audit-logs": ["read"],
  "ip-allowlist": ["read"],
};

/** Infisical's "viewer" role as data: read what there is to read (secret values included). */
const viewer: Partial<Record<ProjectSubject, string[]>> = {
  secrets: ["read", "describeSecret", "readValue"],
  "secret-folders": ["read"],
  "secret-imports": ["read"],
  "dynamic-secrets": ["read-root-credential"],
  "secret-approval": ["read"],
  "secret-rollback": ["read"],
  "secret-rotation": ["read"],
  member: ["read"],
  groups: ["read"],
  role: ["read"],
  integrations: ["read"],
  webhooks: ["read"],
  identity: ["read"],
  "service-tokens": ["read"],
  settings: ["read"],
  environments: ["read"],
  tags: ["read"],
  "audit-logs": ["read"],
  "ip-allowlist": ["read"],
};

const asRules = (table: Partial<Record<string, string[]>>): ProjectRule[] =>
  Object.entries(table).map(([subject, action]) => ({ subject, action: [...(action ?? [])] }));

/** The predefined project roles, in the order Infisical lists them. They are never stored. */
export const predefinedProjectRoles: Readonly<Record<PredefinedProjectRoleSlug, PredefinedProjectRole>> = {
  admin: {
    slug: "admin",
    name: "Admin",
    description: "Full administrative access over a project",
    permissions: everything,
  },
  member: {
    slug: "member",
    name: "Member",
    description: "Limited read/write role in a project",
    permissions: asRules(member),
  },
  viewer: {
    slug: "viewer",
    name: "Viewer",
    description: "Only read role in a project",
    permissions: asRules(viewer),
  },
  "no-access": {
    slug: "no-access",
    name: "No Access",
    description: "No access to any resources in the project",
    permissions: [],
  },
};

export function isPredefinedProjectRole(slug: string): slug is PredefinedProjectRoleSlug {
  return Object.hasOwn(predefinedProjectRoles, slug);
}
