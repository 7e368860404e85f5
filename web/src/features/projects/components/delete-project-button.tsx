import type { Project } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { ShieldCheck, Trash2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { paths } from "@/config/paths";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { contentCounts, folderContentsQuery } from "@/lib/folder-contents";
import { toast } from "@/lib/toast";
import { useDeleteProject } from "../mutations";

interface DeleteProjectButtonProps {
  project: Project;
  /** Why the signed-in identity may not delete projects, when it may not. */
  deniedReason: string | undefined;
}

export function DeleteProjectButton({ project, deniedReason }: DeleteProjectButtonProps) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const deleteProject = useDeleteProject();
  const isProtected = project.hasDeleteProtection === true;
  const failure = deleteProject.error;
  const { environments } = project;
  const contents = useQuery({
    ...folderContentsQuery(
      environments.map((env) => ({ projectId: project.id, environment: env.slug, secretPath: "/" })),
      open && !isProtected,
    ),
    select: (counted) => [
      { count: environments.length, one: "environment", many: "environments" },
      ...contentCounts(counted),
    ],
  });

  function handleOpenChange(next: boolean) {
    if (!next) deleteProject.reset();
    setOpen(next);
  }

  function confirm() {
    deleteProject.mutate(project.id, {
      onSuccess: () => {
        toast.success("Project deleted", project.name);
        setOpen(false);
        navigate(paths.projects.href(), { replace: true });
      },
    });
  }

  return (
    <>
      <PermittedButton
        variant="destructive-outline"
        size="sm"
        onClick={() => setOpen(true)}
        deniedReason={deniedReason}
      >
        <Trash2 aria-hidden />
        Delete project
      </PermittedButton>
      <ConfirmDialog
        open={open}
        onOpenChange={handleOpenChange}
        title="Delete project"
        confirmLabel="Delete project"
        onConfirm={confirm}
        pending={deleteProject.isPending}
        blocked={isProtected}
        removes={{
          name: project.slug,
          counting: contents,
          sentence: (counts) => <>Deleted with it: {counts}.</>,
          always: true,
        }}
        description={
          isProtected ? (
            <p>
              <span className="font-medium text-foreground">{project.name}</span> cannot be deleted while delete
              protection is on; the server refuses the request.
            </p>
          ) : (
            <p>
              This permanently deletes <span className="font-medium text-foreground">{project.name}</span> with its
              environments, every secret, role and membership. Software reading its secrets will stop working.
            </p>
          )
        }
        error={failure && !isApiError(failure, 401) ? errorSummary(failure, "Could not delete the project") : undefined}
      >
        {isProtected ? (
          <div className="flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground">
            <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>Turn delete protection off in the project's settings first, then delete.</p>
          </div>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
