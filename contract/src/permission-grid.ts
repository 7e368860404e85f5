import {
  buildProjectAbility,
  isGrantActive,
  normalizeRule,
  type ProjectAbility,
  type ProjectRule,
  projectSubject,
  type TemporaryWindow,
} from "./permission-engine.ts";

/**
 * What a set of rules allows over a project's real scope: every environment × folder × secret
 * action, each answer with the rule that decides it. The console previews a role, privilege or
 * membership change as the difference of two such grids, with the service's own evaluation.
 *
 * A grid is at folder level: a check names the environment and the folder, not a secret, so a rule
 * narrowed by secret name or tags decides nothing here (as in the service, a condition on a field
 * the check does not give never matches).
 */

/** The secret actions a preview answers, in the order it shows them. */
export const secretActions = ["readValue", "describe", "create", "edit", "delete"] as const;
export type SecretAction = (typeof secretActions)[number];

export const secretActionLabels: Readonly<Record<SecretAction, string>> = {
  readValue: "Read value",
  describe: "Describe",
  create: "Create",
  edit: "Edit",
  delete: "Delete",
};

/**
 * The CASL actions that grant each secret action, as the service checks them: `canReadValue`
 * takes `read` or `readValue`, `canDescribe` takes `read` or `describeSecret`.
 */
const grantingActions: Readonly<Record<SecretAction, readonly string[]>> = {
  readValue: ["read", "readValue"],
  describe: ["read", "describeSecret"],
  create: ["create"],
  edit: ["edit"],
  delete: ["delete"],
};

/** Where rules come from: a role or an additional privilege, its rules already `rulesForIdentity`-applied. */
export interface GrantSource {
  kind: "role" | "privilege";
  /** The role's or privilege's slug. */
  slug: string;
  /** What a person reads: the role's name, or the privilege's slug. */
  name: string;
  rules: ProjectRule[];
}

/** One environment of the project and the full paths of its folders ("/" is added when missing). */
export interface EnvironmentScope {
  slug: string;
  folders: readonly string[];
}

/** The rule that decides a cell: an allow rule that grants it, or a deny rule that refuses it. */
export interface DecidingRule {
  source: Pick<GrantSource, "kind" | "slug" | "name">;
  rule: ProjectRule;
}

export interface AccessCell {
  environment: string;
  folder: string;
  action: SecretAction;
  allowed: boolean;
  /** Null when no rule speaks of it at all (refused because nothing grants it). */
  decidedBy: DecidingRule | null;
}

type CaslRule = NonNullable<ReturnType<ProjectAbility["relevantRuleFor"]>>;

/** Folders of one environment, "/" first, then in path order, each once. */
function foldersOf(environment: EnvironmentScope): string[] {
  return [...new Set(["/", ...[...environment.folders].sort()])];
}

/** Every environment × folder × secret action that `sources` together allow, and why. */
export function evaluateScope(sources: readonly GrantSource[], scope: readonly EnvironmentScope[]): AccessCell[] {
  const flat = sources.flatMap((source) => source.rules.map((rule) => ({ source, rule: normalizeRule(rule) })));
  const ability = buildProjectAbility(flat.map((entry) => entry.rule));
  // CASL keeps each raw rule as the deciding rule's `origin`: map it back to where it came from.
  const origins = new Map<unknown, (typeof flat)[number]>();
  ability.rules.forEach((raw, index) => {
    const entry = flat[index];
    if (entry) origins.set(raw, entry);
  });
  const describe = (rule: CaslRule): DecidingRule => {
    const entry = origins.get(rule.origin);
    if (!entry) throw new Error("A deciding rule that no source holds");
    const { kind, slug, name } = entry.source;
    return { source: { kind, slug, name }, rule: entry.rule };
  };

  const cells: AccessCell[] = [];
  for (const environment of scope) {
    for (const folder of foldersOf(environment)) {
      const target = projectSubject("secrets", { environment: environment.slug, secretPath: folder });
      for (const action of secretActions) {
        const relevant = grantingActions[action].map((casl) => ability.relevantRuleFor(casl, target));
        // Allowed when any granting action is allowed (as the service's checks say); otherwise a
        // deny rule that refused one of them is named, or nothing when no rule matched at all.
        const grant = relevant.find((rule) => rule && !rule.inverted);
        const deny = relevant.find((rule) => rule?.inverted);
        const decider = grant ?? deny;
        cells.push({
          environment: environment.slug,
          folder,
          action,
          allowed: grant !== undefined,
          decidedBy: decider ? describe(decider) : null,
        });
      }
    }
  }
  return cells;
}

export interface AccessChange {
  change: "gains" | "loses";
  environment: string;
  folder: string;
  action: SecretAction;
  /** The rule that decided the cell before and after the change. */
  before: DecidingRule | null;
  after: DecidingRule | null;
}

const cellKey = (cell: Pick<AccessCell, "environment" | "folder" | "action">) =>
  `${cell.environment}\u0000${cell.folder}\u0000${cell.action}`;

/** What `after` allows that `before` did not (gains) and the reverse (losses); a cell absent from a grid is refused. */
export function diffAccess(before: readonly AccessCell[], after: readonly AccessCell[]): AccessChange[] {
  const old = new Map(before.map((cell) => [cellKey(cell), cell]));
  const changes: AccessChange[] = [];
  const seen = new Set<string>();
  for (const cell of after) {
    const key = cellKey(cell);
    seen.add(key);
    const previous = old.get(key);
    const was = previous?.allowed ?? false;
    if (was === cell.allowed) continue;
    const { environment, folder, action } = cell;
    changes.push({
      change: cell.allowed ? "gains" : "loses",
      environment,
      folder,
      action,
      before: previous?.decidedBy ?? null,
      after: cell.decidedBy,
    });
  }
  for (const [key, cell] of old) {
    if (seen.has(key) || !cell.allowed) continue;
    const { environment, folder, action } = cell;
    changes.push({ change: "loses", environment, folder, action, before: cell.decidedBy, after: null });
  }
  return changes;
}

/** Identical changes together: "loses Read value in prod: 14 folders". */
export interface ChangeGroup {
  change: AccessChange["change"];
  action: SecretAction;
  environment: string;
  folders: string[];
}

/** Groups changes by kind, action and environment, in the order of `secretActions`, losses first. */
export function groupChanges(changes: readonly AccessChange[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const { change, action, environment, folder } of changes) {
    const key = `${change}\u0000${environment}\u0000${action}`;
    const group = groups.get(key) ?? { change, action, environment, folders: [] };
    group.folders.push(folder);
    groups.set(key, group);
  }
  const rank = (group: ChangeGroup) => (group.change === "loses" ? 0 : 1) * 100 + secretActions.indexOf(group.action);
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || a.environment.localeCompare(b.environment));
}

/** A role or privilege row with its temporary window. */
export type TimedGrant = TemporaryWindow;

/** The grants that count at time `t` (ms since the epoch), by the service's temporary-access rule. */
export function grantsActiveAt<T extends TimedGrant>(grants: readonly T[], t: number): T[] {
  return grants.filter((grant) => isGrantActive(grant, t));
}

/**
 * The moments after `from` when the set of active grants changes: the end times of temporary
 * grants still running then, ascending and each once. A start time changes nothing (the service
 * does not wait for it), so only ends are moments.
 */
export function grantChangeMoments(grants: readonly TimedGrant[], from: number): number[] {
  const ends = new Set<number>();
  for (const grant of grants) {
    if (!grant.isTemporary || grant.temporaryAccessEndTime === null) continue;
    const end = new Date(grant.temporaryAccessEndTime).getTime();
    if (Number.isFinite(end) && end > from) ends.add(end);
  }
  return [...ends].sort((a, b) => a - b);
}
