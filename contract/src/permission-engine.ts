import { buildMongoQueryMatcher, type MongoQuery, PureAbility, subject as tagSubject } from "@casl/ability";
import { packRules, unpackRules } from "@casl/ability/extra";
import { LRUCache } from "lru-cache";
import picomatch from "picomatch";
import { type ProjectSubject, projectPermissionActions } from "./permissions.ts";

/**
 * Project permissions as data and evaluation: rules in, a CASL ability out, with Infisical's
 * condition operators ($eq $ne $in $glob), its temporary-access window and its predefined roles.
 * The service decides every request with it and the console previews changes with it (who gains
 * and loses what, which rule grants an access), so both answer alike. Nothing here reads a
 * database or a clock of its own: callers pass `now`.
 */

/** What a project-scoped check may say about the object it acts on (the condition fields). */
export interface ProjectFields {
  environment?: string;
  secretPath?: string;
  secretName?: string;
  secretTags?: string[];
  identityId?: string;
  /** An audit event's type (`audit-logs` rules may narrow reading by it). */
  eventType?: string;
}

type TaggedSubject = ProjectFields & { __caslSubjectType__: string };
export type ProjectAbility = PureAbility<[string, string | TaggedSubject], MongoQuery>;

/** Compiled globs never go stale, so a bounded cache of them is safe across requests. */
const globs = new LRUCache<string, (value: string) => boolean>({ max: 1000 });

function globMatcher(pattern: string): (value: string) => boolean {
  let matcher = globs.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { strictSlashes: false });
    globs.set(pattern, matcher);
  }
  return matcher;
}

/** `{secretPath: {$glob: "/app/**"}}`: picomatch with strictSlashes off; an empty glob never matches. */
export function globMatches(pattern: unknown, value: unknown): boolean {
  if (typeof pattern !== "string" || pattern === "" || typeof value !== "string") return false;
  return globMatcher(pattern)(value);
}

type MatcherArgs = Parameters<typeof buildMongoQueryMatcher>;
const $glob = {
  type: "field",
  validate(instruction: { name: string }, value: unknown) {
    if (typeof value !== "string") throw new TypeError(`"${instruction.name}" expects a glob string`);
  },
} as unknown as NonNullable<MatcherArgs[0]>[string];
const glob = ((
  node: { field: string; value: string },
  object: unknown,
  context: { get: (o: unknown, f: string) => unknown },
) => globMatches(node.value, context.get(object, node.field))) as unknown as NonNullable<MatcherArgs[1]>[string];

const conditionsMatcher = buildMongoQueryMatcher({ $glob }, { glob });

/** Normalises a rule to the returned form: `action` a list, `inverted` explicit, conditions only when set. */
export function normalizeRule(rule: {
  subject: unknown;
  action: unknown;
  conditions?: unknown;
  inverted?: unknown;
}): ProjectRule {
  const action = (Array.isArray(rule.action) ? rule.action : String(rule.action).split(",")).map(String);
  const normalized: ProjectRule = { subject: String([rule.subject].flat()[0]), action };
  if (rule.conditions && typeof rule.conditions === "object" && Object.keys(rule.conditions).length > 0) {
    normalized.conditions = rule.conditions as Record<string, unknown>;
  }
  normalized.inverted = rule.inverted === true;
  return normalized;
}

/** Rules as stored in a `permissions` column: CASL-packed arrays (Infisical's way) or plain objects. */
export function parseStoredRules(stored: string | unknown[]): ProjectRule[] {
  const raw = typeof stored === "string" ? (JSON.parse(stored) as unknown) : stored;
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) =>
    Array.isArray(entry)
      ? normalizeRule(unpackRules([entry as Parameters<typeof unpackRules>[0][number]])[0] as ProjectRule)
      : normalizeRule(entry as ProjectRule),
  );
}

/** Rules in the form the `permissions` columns store: packed, as Infisical stores them. */
export function serializeRules(rules: ProjectRule[]): string {
  return JSON.stringify(packRules(rules.map(normalizeRule)));
}

/**
 * Rules as they apply to one identity: `{{identity.id}}` in a condition value (the only
 * template rules may hold) becomes that identity's id, so one role can say "its own identity".
 */
export function rulesForIdentity(rules: ProjectRule[], identityId: string): ProjectRule[] {
  return rules.map((rule) => {
    if (!rule.conditions) return rule;
    const text = JSON.stringify(rule.conditions);
    if (!text.includes("{{")) return rule;
    const conditions = JSON.parse(text.replace(/\{\{\s*identity\.id\s*\}\}/g, identityId.replace(/["\\]/g, "")));
    return { ...rule, conditions };
  });
}

export function buildProjectAbility(rules: ProjectRule[]): ProjectAbility {
  return new PureAbility<[string, string | TaggedSubject], MongoQuery>(
    rules.map((rule) => ({ ...rule, conditions: rule.conditions as MongoQuery | undefined })),
    { conditionsMatcher },
  );
}

/** A role or privilege row's temporary columns. */
export interface TemporaryWindow {
  isTemporary: boolean;
  temporaryAccessEndTime: Date | string | null;
}

/**
 * Whether a role or privilege counts now. Infisical's rule, kept exactly: a temporary grant
 * counts while now < its end time; its start time is not checked (a start in the future does not
 * delay it), and expired rows stay stored, just ignored.
 */
export function isGrantActive(grant: TemporaryWindow, now: number): boolean {
  if (!grant.isTemporary) return true;
  if (grant.temporaryAccessEndTime === null) return false;
  const end =
    grant.temporaryAccessEndTime instanceof Date
      ? grant.temporaryAccessEndTime.getTime()
      : Date.parse(grant.temporaryAccessEndTime);
  return Number.isFinite(end) && now < end;
}

/** The subject to check: the bare type, or the type tagged with the fields conditions look at. */
export function projectSubject(subjectType: string, fields?: ProjectFields): string | TaggedSubject {
  return fields ? (tagSubject(subjectType, { ...fields }) as TaggedSubject) : subjectType;
}

/** The rules the actor holds about a subject, for a 403 body's `details`. */
export function rulesAbout(ability: ProjectAbility, subjectType: string): ProjectRule[] {
  return ability.rules
    .filter((rule) => [rule.subject].flat().includes(subjectType))
    .map((rule) => normalizeRule(rule as ProjectRule));
}

/** A secret is listed (its key, metadata) with `describeSecret` or the legacy `read`. */
export function canDescribe(ability: ProjectAbility, fields?: ProjectFields): boolean {
  const target = projectSubject("secrets", fields);
  return ability.can("read", target) || ability.can("describeSecret", target);
}

/** A secret's value is revealed with `readValue` or the legacy `read`. */
export function canReadValue(ability: ProjectAbility, fields?: ProjectFields): boolean {
  const target = projectSubject("secrets", fields);
  return ability.can("read", target) || ability.can("readValue", target);
}

/** Condition objects compared by value, whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export interface MissingPermission {
  subject: string;
  action: string;
  conditions?: Record<string, unknown>;
}

/**
 * The permission boundary: the allow rules among `rules` that `ability` does not already hold.
 * An (action, subject[, conditions]) grant is within the boundary when the holder has no deny
 * rule for that action and subject (any deny could overlap what is granted) and has an allow
 * rule for it that is either unconditional or carries exactly the same conditions. Deny rules
 * grant nothing and are always within. This is deliberately stricter than set inclusion of
 * conditions (a holder of `secretPath: {$glob: "/**"}` cannot grant `{$glob: "/app/**"}`); it
 * never lets anyone grant more than they hold.
 */
export function missingPermissions(ability: ProjectAbility, rules: ProjectRule[]): MissingPermission[] {
  const missing: MissingPermission[] = [];
  for (const rule of rules.map(normalizeRule)) {
    if (rule.inverted) continue;
    const wanted = rule.conditions ? canonical(rule.conditions) : undefined;
    for (const action of rule.action) {
      const held = ability.possibleRulesFor(action, rule.subject);
      const denied = held.some((r) => r.inverted);
      const allowed = held.some(
        (r) =>
          !r.inverted && (r.conditions === undefined || (wanted !== undefined && canonical(r.conditions) === wanted)),
      );
      if (denied || !allowed) {
        missing.push({ subject: rule.subject, action, ...(rule.conditions && { conditions: rule.conditions }) });
      }
    }
  }
  return missing;
}

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
