import {
  type AccessCell,
  type DecidingRule,
  evaluateScope,
  secretActionLabels,
  secretActions,
} from "@keyhold/contract/permission-grid";
import { Check, Minus, X } from "lucide-react";
import { useMemo, useState } from "react";
import { ruleName } from "@/components/permissions/access-change-list";
import { grantSources } from "@/components/permissions/access-preview";
import { RolesOnlyNotice } from "@/components/permissions/roles-only-notice";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { useIdentityGrants } from "../identity-grants";

/** Folders of one environment whose five answers (and deciding rules) are the same, shown as one row. */
interface FolderGroup {
  folders: string[];
  cells: AccessCell[];
}

const deciderKey = (cell: AccessCell) => `${cell.allowed}:${cell.decidedBy ? ruleName(cell.decidedBy) : ""}`;

function groupFolders(cells: readonly AccessCell[], environment: string): FolderGroup[] {
  const groups = new Map<string, FolderGroup>();
  const byFolder = new Map<string, AccessCell[]>();
  for (const cell of cells) {
    if (cell.environment !== environment) continue;
    byFolder.set(cell.folder, [...(byFolder.get(cell.folder) ?? []), cell]);
  }
  for (const [folder, row] of byFolder) {
    const key = row.map(deciderKey).join("|");
    const group = groups.get(key) ?? { folders: [], cells: row };
    group.folders.push(folder);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * "What may this identity do here, and which rule says so": every environment × folder × secret
 * action, evaluated now with the service's rules over its roles and privileges. Folders with the
 * same answers share a row. Loaded lazily with the permission engine.
 */
export default function EffectiveAccess({ projectId, identityId }: { projectId: string; identityId: string }) {
  const grants = useIdentityGrants(projectId, identityId);
  const [now] = useState(() => Date.now());
  const result = useMemo(() => {
    if (!grants.data) return undefined;
    const { member, rules, scope } = grants.data;
    try {
      const cells = evaluateScope(
        grantSources(member, (slug) => rules.get(slug), now),
        scope,
      );
      return { scope, cells, error: undefined };
    } catch (error) {
      return { scope, cells: undefined, error };
    }
  }, [grants.data, now]);

  if (grants.isPending) {
    return (
      <div role="status" aria-label="Working out the identity's access" className="grid gap-2">
        <Skeleton className="h-7" />
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (grants.isError || !result?.cells) {
    return (
      <div className="grid gap-2">
        <FormAlert
          message={`The access could not be worked out: ${errorSummary(grants.error ?? result?.error, "the server did not answer")}`}
        />
        <Button variant="secondary" size="sm" className="justify-self-start" onClick={() => grants.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { cells, scope } = result;
  return (
    <div className="grid gap-5">
      <RolesOnlyNotice show={grants.data?.rolesOnly ?? false} />
      {scope.map(({ slug }) => {
        const groups = groupFolders(cells, slug);
        const deciders = uniqueDeciders(cells.filter((cell) => cell.environment === slug));
        return (
          <section key={slug} aria-label={`Access in ${slug}`} className="grid gap-2">
            <h4 className="font-mono text-[13px] font-semibold">{slug}</h4>
            <div className="hidden overflow-x-auto rounded-lg border border-border sm:block">
              <Table aria-label={`Secret access in ${slug}`}>
                <TableHeader>
                  <TableRow>
                    <TableHead>Folders</TableHead>
                    {secretActions.map((action) => (
                      <TableHead key={action} className="whitespace-nowrap">
                        {secretActionLabels[action]}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {groups.map((group) => (
                    <TableRow key={group.folders.join(",")}>
                      <TableCell className="align-top">
                        <FolderList folders={group.folders} />
                      </TableCell>
                      {group.cells.map((cell) => (
                        <TableCell key={cell.action} className="align-top">
                          <Decision cell={cell} />
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            {/* On a phone the five columns do not fit: each group of folders is a short list instead. */}
            <ul className="grid gap-2 sm:hidden" aria-label={`Secret access in ${slug}`}>
              {groups.map((group) => (
                <li key={group.folders.join(",")} className="grid gap-1 rounded-lg border border-border p-3">
                  <FolderList folders={group.folders} />
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                    {group.cells.map((cell) => (
                      <div key={cell.action} className="contents">
                        <dt className="text-muted-foreground">{secretActionLabels[cell.action]}</dt>
                        <dd>
                          <Decision cell={cell} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
            {deciders.length > 0 ? (
              <ul className="grid gap-0.5 text-xs text-muted-foreground" aria-label={`Rules deciding in ${slug}`}>
                {deciders.map((decider) => (
                  <li key={ruleName(decider)}>
                    {decider.rule.inverted ? "Denied by " : "Granted by "}
                    {ruleName(decider)}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

function uniqueDeciders(cells: readonly AccessCell[]): DecidingRule[] {
  const seen = new Map<string, DecidingRule>();
  for (const cell of cells) if (cell.decidedBy) seen.set(ruleName(cell.decidedBy), cell.decidedBy);
  return [...seen.values()];
}

function FolderList({ folders }: { folders: readonly string[] }) {
  return (
    <span className="flex flex-wrap gap-x-2 gap-y-0.5 font-mono text-xs">
      {folders.map((folder) => (
        <span key={folder}>{folder}</span>
      ))}
    </span>
  );
}

function Decision({ cell }: { cell: AccessCell }) {
  const Icon = cell.allowed ? Check : cell.decidedBy ? X : Minus;
  const source = cell.decidedBy?.source;
  return (
    <span className="inline-flex min-w-24 items-start gap-1 text-xs">
      <Icon
        aria-hidden
        className={cn(
          "mt-0.5 size-3.5 shrink-0",
          cell.allowed
            ? "text-success-subtle-foreground"
            : cell.decidedBy
              ? "text-destructive-subtle-foreground"
              : "text-muted-foreground",
        )}
      />
      <span>
        <span className="sr-only">{cell.allowed ? "Allowed" : "Not allowed"}, </span>
        {source ? (
          <>
            <span className="sr-only">{cell.allowed ? "granted by " : "denied by "}</span>
            {source.kind} {source.name}
          </>
        ) : (
          <span className="text-muted-foreground">no rule</span>
        )}
      </span>
    </span>
  );
}
