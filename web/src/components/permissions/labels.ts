import type { ProjectSubject } from "@keyhold/contract";

/** Words for the few names a mechanical "kebab-case → Sentence case" reads badly. */
const subjectNames: Partial<Record<string, string>> = {
  workspace: "Project",
  kms: "KMS",
  "ip-allowlist": "IP allowlist",
  member: "Members",
  role: "Roles",
  identity: "Identities",
  groups: "Groups",
  "secret-rollback": "Secret rollback",
  "secret-approval": "Secret approvals",
  "secret-rotation": "Secret rotation",
};

const actionNames: Partial<Record<string, string>> = {
  describeSecret: "Describe",
  readValue: "Read value",
};

const conditionFieldNames: Partial<Record<string, string>> = {
  environment: "Environment",
  secretPath: "Secret path",
  secretName: "Secret name",
  secretTags: "Secret tags",
  eventType: "Event type",
  identityId: "Identity ID",
};

const operatorNames: Record<string, string> = {
  $eq: "equals",
  $ne: "does not equal",
  $in: "is one of",
  $glob: "matches glob",
};

/** How the builder groups subjects; a subject the contract adds later lands in "Other". */
export const subjectGroups: { title: string; subjects: readonly string[] }[] = [
  {
    title: "Secrets",
    subjects: [
      "secrets",
      "secret-folders",
      "secret-imports",
      "secret-rollback",
      "secret-approval",
      "secret-rotation",
      "dynamic-secrets",
    ],
  },
  { title: "Access control", subjects: ["role", "member", "groups", "identity", "service-tokens"] },
  {
    title: "Project",
    subjects: [
      "workspace",
      "settings",
      "environments",
      "tags",
      "integrations",
      "webhooks",
      "audit-logs",
      "ip-allowlist",
      "kms",
    ],
  },
];

/** "read-root-credential" → "Read root credential", "readValue" → "Read value". */
function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const subjectLabel = (subject: ProjectSubject | string) => subjectNames[subject] ?? humanize(subject);
export const actionLabel = (action: string) => actionNames[action] ?? humanize(action);
export const conditionFieldLabel = (field: string) => conditionFieldNames[field] ?? humanize(field);
export const operatorLabel = (operator: string) => operatorNames[operator] ?? operator;
