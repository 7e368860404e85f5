import type { PermissionRuleInput } from "@keyhold/contract";
import type { ProjectRule } from "@keyhold/contract/permission-engine";
import { useMemo, useState } from "react";
import { AccessChangeList } from "@/components/permissions/access-change-list";
import {
  accessChanges,
  grantEnds,
  grantSources,
  type HeldPrivilege,
  type MemberChanges,
} from "@/components/permissions/access-preview";
import { GrantTimeline } from "@/components/permissions/grant-timeline";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/hooks/use-debounced";
import { errorSummary } from "@/lib/describe-error";
import { useIdentityGrants } from "../identity-grants";
import { previewEnd, type TemporaryAccess } from "../temporary-access";

interface PrivilegeChangePreviewProps {
  projectId: string;
  identityId: string;
  /** The stored privilege being edited; a new one when absent. */
  privilegeId?: string | undefined;
  slug: string;
  permissions: readonly PermissionRuleInput[];
  access: TemporaryAccess;
}

/**
 * What adding or changing this privilege would change for the identity, with its roles and other
 * privileges counted; with a temporary grant, a slider shows access at each moment one ends.
 */
export function PrivilegeChangePreview(props: PrivilegeChangePreviewProps) {
  const { projectId, identityId, privilegeId } = props;
  const grants = useIdentityGrants(projectId, identityId);
  // The rules settle before they are evaluated: typing a glob is not a recomputation a keystroke.
  const { isTemporary, temporaryRange, startMode, startAt } = props.access;
  const current = useMemo(
    () => ({
      slug: props.slug,
      permissions: props.permissions,
      access: { isTemporary, temporaryRange, startMode, startAt },
    }),
    [props.slug, props.permissions, isTemporary, temporaryRange, startMode, startAt],
  );
  const draft = useDebounced(current, 250);
  const [now] = useState(() => Date.now());
  const [step, setStep] = useState(0);

  const result = useMemo(() => {
    if (!grants.data) return undefined;
    const { member, rules, scope } = grants.data;
    const end = previewEnd(draft.access, new Date(now));
    const edited: HeldPrivilege = {
      slug: draft.slug || "new privilege",
      isTemporary: draft.access.isTemporary,
      temporaryAccessEndTime: end ? end.toISOString() : null,
      permissions: draft.permissions as ProjectRule[],
    };
    const after = { ...member, privileges: [...member.privileges.filter((p) => p.id !== privilegeId), edited] };
    const ends = grantEnds(after, now);
    const at = step === 0 ? now : (ends[Math.min(step, ends.length) - 1]?.at ?? now);
    try {
      const rulesOf = (slug: string) => rules.get(slug);
      const changes = accessChanges(grantSources(member, rulesOf, now), grantSources(after, rulesOf, at), scope);
      const entry: MemberChanges = { member: { kind: "identity", id: member.id, name: member.name }, changes };
      return { entry, ends, error: undefined };
    } catch (error) {
      return { entry: undefined, ends, error };
    }
  }, [grants.data, draft, privilegeId, now, step]);

  return (
    <section aria-labelledby="privilege-preview-title" className="grid gap-2">
      <h3 id="privilege-preview-title" className="text-[13px] font-medium">
        What this changes on secrets
      </h3>
      {grants.isPending ? (
        <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
          <Spinner />
          Reading the identity's roles and privileges…
        </p>
      ) : grants.isError || !result?.entry ? (
        <div className="grid gap-2">
          <FormAlert
            message={`The preview could not be worked out: ${errorSummary(grants.error ?? result?.error, "the server did not answer")}`}
          />
          {grants.isError ? (
            <Button variant="secondary" size="sm" className="justify-self-start" onClick={() => grants.refetch()}>
              Try again
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          <GrantTimeline ends={result.ends} value={Math.min(step, result.ends.length)} onChange={setStep} />
          <p className="text-xs text-muted-foreground">Compared with the identity's access now, before saving.</p>
          <AccessChangeList members={[result.entry]} unchangedText="No change to this identity's access to secrets." />
        </>
      )}
    </section>
  );
}
