import { lazy, Suspense, useCallback, useMemo } from "react";
import type { ProjectMember } from "@/components/permissions/access-preview";
import { useDebounced } from "@/hooks/use-debounced";
import type { RoleEntry } from "../membership-form";
import { previewEnd } from "../temporary-access";
import { Spinner } from "@/components/ui/spinner";

// The permission engine (globs, CASL conditions) loads with the first preview, not with the page.
const IdentityChangePreview = lazy(() => import("./identity-change-preview"));

const loading = (
  <p role="status" className="flex items-center gap-2 text-[13px] text-muted-foreground">
    <Spinner />
    Loading the preview…
  </p>
);

interface RolesChangePreviewProps {
  projectId: string;
  identityId: string;
  /** The roles as the form holds them now. */
  entries: readonly RoleEntry[];
}

/** What replacing an identity's roles with `entries` would change for it on secrets. */
export function RolesChangePreview({ projectId, identityId, entries }: RolesChangePreviewProps) {
  // Entries still being chosen (no role yet) change nothing; the rest settle before they count.
  const settled = useDebounced(JSON.stringify(entries.filter((entry) => entry.role !== "")), 250);
  const chosen = useMemo(() => JSON.parse(settled) as RoleEntry[], [settled]);
  const slugs = useMemo(() => chosen.map((entry) => entry.role), [chosen]);

  const apply = useCallback(
    (member: ProjectMember, now: number): ProjectMember => ({
      ...member,
      roles: chosen.map(({ role, ...access }) => {
        const end = previewEnd(access, new Date(now));
        return {
          role,
          isTemporary: access.isTemporary,
          temporaryAccessEndTime: end ? end.toISOString() : null,
        };
      }),
    }),
    [chosen],
  );

  return (
    <Suspense fallback={loading}>
      <IdentityChangePreview projectId={projectId} identityId={identityId} extraRoleSlugs={slugs} apply={apply} />
    </Suspense>
  );
}
