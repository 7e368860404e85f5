import type { PermissionRuleInput, ProjectRole } from "@keyhold/contract";
import * as Tabs from "@radix-ui/react-tabs";
import { Info } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { PermissionRulesEditor } from "@/components/permissions/permission-rules-editor";
import { PermissionRulesJson } from "@/components/permissions/permission-rules-json";
import { useServerActions } from "@/components/permissions/server-actions";
import { validatePermissionRules } from "@/components/permissions/rule-model";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { isApiError } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { issuePath } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useUpdateRole } from "../mutations";

// The preview brings the permission engine (globs, CASL conditions): loaded only when a save is reviewed.
const RoleChangePreview = lazy(() => import("./role-change-preview"));

interface RolePermissionsProps {
  projectId: string;
  role: ProjectRole;
  /** Why the rules cannot be changed here (a built-in role, or no permission); editable when undefined. */
  readOnlyReason: string | undefined;
}

const tabClasses = cn(
  "-mb-px inline-flex h-9 items-center border-b-2 border-transparent px-1 text-sm font-medium text-muted-foreground",
  "outline-none transition-colors hover:text-foreground focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring",
  "data-[state=active]:border-accent data-[state=active]:text-foreground",
);

/** The role's rules as a draft: edited in the builder, seen as JSON, saved or discarded as a whole. */
export function RolePermissions({ projectId, role, readOnlyReason }: RolePermissionsProps) {
  const saved = role.permissions as PermissionRuleInput[];
  const [draft, setDraft] = useState<PermissionRuleInput[]>(saved);
  const [showErrors, setShowErrors] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const serverActions = useServerActions(projectId);
  const updateRole = useUpdateRole(projectId, role);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const issues = validatePermissionRules(draft);
  const readOnly = readOnlyReason !== undefined;
  // Leaving the role with unsaved rules, or reloading, asks first.
  useUnsavedChanges(dirty);

  /** Saving goes through a review: who gains and loses what, before anything is sent. */
  function review() {
    setShowErrors(true);
    if (issues.length > 0) return;
    updateRole.reset();
    setReviewing(true);
  }

  function save() {
    // The promise, not mutate's callbacks: a saved role usually remounts this component with fresh
    // rules (a new updatedAt), but a server that keeps updatedAt would leave the review open.
    updateRole.mutateAsync({ permissions: draft }).then(
      (updated) => {
        setReviewing(false);
        toast.success("Permissions saved", updated.name);
      },
      () => undefined, // shown in the review from the mutation's error state
    );
  }

  function discard() {
    setDraft(saved);
    setShowErrors(false);
    updateRole.reset();
  }

  return (
    <Tabs.Root defaultValue="builder" className="grid gap-4">
      <Tabs.List aria-label="Permission views" className="flex gap-4 border-b border-border">
        <Tabs.Trigger value="builder" className={tabClasses}>
          Permissions
        </Tabs.Trigger>
        <Tabs.Trigger value="json" className={tabClasses}>
          JSON
        </Tabs.Trigger>
      </Tabs.List>

      {readOnly ? (
        <p
          role="note"
          className="flex items-start gap-2 rounded-md border border-border bg-surface px-3 py-2 text-[13px] text-muted-foreground"
        >
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          {readOnlyReason}
        </p>
      ) : null}

      <Tabs.Content value="builder" className="outline-none">
        <PermissionRulesEditor
          projectId={projectId}
          value={draft}
          onChange={setDraft}
          readOnly={readOnly}
          showErrors={showErrors}
          serverActions={serverActions}
        />
      </Tabs.Content>
      <Tabs.Content value="json" className="grid gap-2 outline-none">
        {dirty ? <p className="text-[13px] text-muted-foreground">Includes your unsaved changes.</p> : null}
        <PermissionRulesJson value={draft} />
      </Tabs.Content>

      {readOnly ? null : (
        <div
          className={cn(
            "sticky bottom-4 z-10 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-border bg-card px-4 py-3 shadow-lg",
            !dirty && !updateRole.error && "hidden",
          )}
        >
          <div className="min-w-0 flex-1">
            {showErrors && issues.length > 0 ? (
              <FormAlert
                message={`Fix ${issues.length === 1 ? "1 problem" : `${issues.length} problems`} marked in the rules before saving.`}
              />
            ) : updateRole.error && !isApiError(updateRole.error, 401) ? (
              <FormAlert message={serverMessage(updateRole.error)} />
            ) : (
              <p className="text-[13px] text-muted-foreground">You have unsaved changes to the permissions.</p>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={discard} disabled={updateRole.isPending}>
              Discard changes
            </Button>
            <Button
              variant="primary"
              size="sm"
              onClick={review}
              disabled={updateRole.isPending}
              aria-busy={updateRole.isPending || undefined}
            >
              {updateRole.isPending ? <Spinner /> : null}
              Save permissions
            </Button>
          </div>
        </div>
      )}
      <Dialog open={reviewing} onOpenChange={(open) => !updateRole.isPending && setReviewing(open)}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>Save the permissions of {role.name}?</DialogTitle>
            <DialogDescription>
              What each user and identity holding this role would gain and lose on secrets, per environment and folder,
              with its other roles and privileges counted. Nothing has been saved yet.
            </DialogDescription>
          </DialogHeader>
          <div className="-mx-1 max-h-[55vh] overflow-y-auto px-1">
            {reviewing ? (
              <Suspense
                fallback={
                  <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
                    <Spinner />
                    Working out who is affected…
                  </p>
                }
              >
                <RoleChangePreview projectId={projectId} role={role} draft={draft} />
              </Suspense>
            ) : null}
          </div>
          {updateRole.error && !isApiError(updateRole.error, 401) ? (
            <FormAlert message={serverMessage(updateRole.error)} />
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary" disabled={updateRole.isPending}>
                Keep editing
              </Button>
            </DialogClose>
            <Button
              variant="primary"
              onClick={save}
              disabled={updateRole.isPending}
              aria-busy={updateRole.isPending || undefined}
            >
              {updateRole.isPending ? <Spinner /> : null}
              Save permissions
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Tabs.Root>
  );
}

/** A refused save in words: the server's validation issues, each with the rule it names. */
function serverMessage(error: unknown): string {
  if (isApiError(error) && error.isValidation && error.issues.length > 0) {
    return `The server did not accept the rules: ${error.issues
      .map((issue) => `${issuePath(issue) || "rules"}: ${issue.message}`)
      .join("; ")}`;
  }
  return errorSummary(error, "Could not save the permissions");
}
