import { useMemo, useState } from "react";
import { AccessChangeList } from "@/components/permissions/access-change-list";
import {
  accessChanges,
  grantEnds,
  grantSources,
  type MemberChanges,
  type ProjectMember,
} from "@/components/permissions/access-preview";
import { GrantTimeline } from "@/components/permissions/grant-timeline";
import { RolesOnlyNotice } from "@/components/permissions/roles-only-notice";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { useIdentityGrants } from "../identity-grants";

export interface IdentityChangePreviewProps {
  projectId: string;
  identityId: string;
  /** Roles the change gives that the identity may not hold yet, whose rules must be read. */
  extraRoleSlugs?: readonly string[];
  /** The identity's grants after the change, given them now and the moment "now" is. Memoise it. */
  apply: (member: ProjectMember, now: number) => ProjectMember;
}

/**
 * What a change to an identity's roles or privileges would change on secrets, evaluated with the
 * service's rules (its other grants counted); when a temporary grant ends, a slider shows access at
 * each moment one does, compared with the identity's access now. Loaded lazily with the engine.
 */
export default function IdentityChangePreview({
  projectId,
  identityId,
  extraRoleSlugs,
  apply,
}: IdentityChangePreviewProps) {
  const grants = useIdentityGrants(projectId, identityId, extraRoleSlugs);
  const [now] = useState(() => Date.now());
  const [step, setStep] = useState(0);

  const result = useMemo(() => {
    if (!grants.data) return undefined;
    const { member, rules, scope } = grants.data;
    try {
      const after = apply(member, now);
      const ends = grantEnds(after, now);
      const at = step === 0 ? now : (ends[Math.min(step, ends.length) - 1]?.at ?? now);
      const rulesOf = (slug: string) => rules.get(slug);
      const changes = accessChanges(grantSources(member, rulesOf, now), grantSources(after, rulesOf, at), scope);
      const entry: MemberChanges = { member: { kind: "identity", id: member.id, name: member.name }, changes };
      return { entry, ends, error: undefined };
    } catch (error) {
      return { entry: undefined, ends: [], error };
    }
  }, [grants.data, apply, now, step]);

  return (
    <section aria-labelledby="identity-preview-title" className="grid gap-2">
      <h3 id="identity-preview-title" className="text-[13px] font-medium">
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
          <RolesOnlyNotice show={grants.data?.rolesOnly ?? false} />
          <GrantTimeline ends={result.ends} value={Math.min(step, result.ends.length)} onChange={setStep} />
          <p className="text-xs text-muted-foreground">Compared with the identity's access now, before saving.</p>
          <AccessChangeList members={[result.entry]} unchangedText="No change to this identity's access to secrets." />
        </>
      )}
    </section>
  );
}
