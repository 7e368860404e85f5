import type { PermissionRuleInput } from "@keyhold/contract";
import type { ProjectRule } from "@keyhold/contract/permission-engine";
import { lazy, Suspense, useCallback } from "react";
import type { ProjectMember } from "@/components/permissions/access-preview";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/hooks/use-debounced";
import { previewEnd, type TemporaryAccess } from "../temporary-access";

// The permission engine (globs, CASL conditions) loads with the first preview, not with the page.
const IdentityChangePreview = lazy(() => import("./identity-change-preview"));

/** While the engine loads. */
export function PreviewLoading() {
  return (
    <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
      <Spinner />
      Loading the preview…
    </p>
  );
}

interface PrivilegeChangePreviewProps {
  projectId: string;
  identityId: string;
  /** The stored privilege being edited; a new one when absent. */
  privilegeId?: string | undefined;
  slug: string;
  permissions: readonly PermissionRuleInput[];
  access: TemporaryAccess;
}

/** What adding or changing this privilege would change for the identity. */
export function PrivilegeChangePreview(props: PrivilegeChangePreviewProps) {
  const { projectId, identityId, privilegeId } = props;
  // The draft settles before it is evaluated: typing a glob is not one evaluation a keystroke.
  const slug = useDebounced(props.slug, 250);
  const permissions = useDebounced(props.permissions, 250);
  const isTemporary = useDebounced(props.access.isTemporary, 250);
  const temporaryRange = useDebounced(props.access.temporaryRange, 250);
  const startMode = useDebounced(props.access.startMode, 250);
  const startAt = useDebounced(props.access.startAt, 250);

  const apply = useCallback(
    (member: ProjectMember, now: number): ProjectMember => {
      const end = previewEnd({ isTemporary, temporaryRange, startMode, startAt }, new Date(now));
      const edited = {
        slug: slug || "new privilege",
        isTemporary,
        temporaryAccessEndTime: end ? end.toISOString() : null,
        permissions: permissions as ProjectRule[],
      };
      return { ...member, privileges: [...member.privileges.filter((p) => p.id !== privilegeId), edited] };
    },
    [slug, permissions, isTemporary, temporaryRange, startMode, startAt, privilegeId],
  );

  return (
    <Suspense fallback={<PreviewLoading />}>
      <IdentityChangePreview projectId={projectId} identityId={identityId} apply={apply} />
    </Suspense>
  );
}
