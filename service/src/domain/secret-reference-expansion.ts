import type { SecretDetail } from "@keyhold/contract";
import { canReadValue, type ProjectAccess } from "./project-permissions.ts";
import { createReferenceExpander, type FolderSecret, type ReferenceIssue } from "./secret-references.ts";

/** Where references that did not resolve are reported (keys and paths only, never values). */
export interface ReferenceIssueLog {
  info(details: object, message: string): void;
}

/**
 * A folder's shared values and tag slugs by key, unfiltered (the expander asks the caller's
 * permission for each secret it uses); undefined when the environment or folder does not exist.
 */
export type FolderValues = (
  projectId: string,
  envSlug: string,
  secretPath: string,
) => Promise<ReadonlyMap<string, FolderSecret> | undefined>;

export interface ReferenceExpansionDeps {
  folderValues: FolderValues;
  log: ReferenceIssueLog;
}

export interface ExpansionRequest {
  access: ProjectAccess;
  viewSecretValue: boolean;
}

type Expandable = Pick<SecretDetail, "environment" | "secretKey" | "secretValue" | "secretValueHidden"> & {
  secretPath: string;
  skipMultilineEncoding?: boolean | null | undefined;
};

const place = (a: { environment: string; secretPath: string; secretKey: string }) =>
  `${a.environment}:${a.secretPath}:${a.secretKey}`;

/**
 * `expandSecretReferences=true` for the raw list and get: each value's `${…}` references are
 * replaced by what they point to, read with the caller's own rights (a value it may not read is a
 * 403, as in Infisical). Values that are hidden, or that were not asked for, stay as they are.
 */
export function createReferenceExpansion({ folderValues, log }: ReferenceExpansionDeps) {
  return async function expandReferences(request: ExpansionRequest, secrets: Expandable[]): Promise<void> {
    if (!request.viewSecretValue) return;
    const targets = secrets.filter((s) => !s.secretValueHidden && s.secretValue !== "");
    if (targets.length === 0) return;
    const { access } = request;
    const expander = createReferenceExpander({
      loadFolder: (environment, secretPath) => folderValues(access.project.id, environment, secretPath),
      canRead: (s) =>
        canReadValue(access.ability, {
          environment: s.environment,
          secretPath: s.secretPath,
          secretName: s.secretKey,
          secretTags: s.secretTags,
        }),
    });
    const { values, issues } = await expander.expandAll(
      targets.map((s) => ({
        environment: s.environment,
        secretPath: s.secretPath,
        secretKey: s.secretKey,
        value: s.secretValue,
        skipMultilineEncoding: s.skipMultilineEncoding ?? false,
      })),
    );
    targets.forEach((secret, index) => {
      secret.secretValue = values[index] ?? secret.secretValue;
    });
    if (issues.length > 0) log.info({ references: issues.map(describeIssue) }, "Secret references left as written");
  };
}

function describeIssue(issue: ReferenceIssue) {
  return {
    kind: issue.kind,
    reference: issue.reference,
    in: place(issue.in),
    ...(issue.target && { target: place(issue.target) }),
  };
}

export type ReferenceExpansion = ReturnType<typeof createReferenceExpansion>;
