import type { Environment, Project } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Layers, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { contentCounts, folderContentsQuery } from "@/lib/folder-contents";
import { toast } from "@/lib/toast";
import { useDeleteEnvironment } from "../mutations";
import { Card, DeniedNote } from "./card";
import { EnvironmentDialog } from "./environment-dialog";
import type { ProjectDenials } from "./use-project-denials";

type Editing = { mode: "add" } | { mode: "rename"; environment: Environment } | undefined;

export function EnvironmentsCard({ project, denials }: { project: Project; denials: ProjectDenials }) {
  const [editing, setEditing] = useState<Editing>();
  // The environment stays set while its confirmation closes, so the closing dialog keeps its text.
  const [deleting, setDeleting] = useState<Environment>();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const remove = useDeleteEnvironment(project.id);
  const contents = useQuery({
    ...folderContentsQuery(
      deleting ? [{ projectId: project.id, environment: deleting.slug, secretPath: "/" }] : [],
      confirmOpen && deleting !== undefined,
    ),
    select: contentCounts,
  });
  const { environments } = project;
  const notes = [denials.createEnvironment, denials.editEnvironment, denials.deleteEnvironment].filter(
    (note, index, all): note is string => note !== undefined && all.indexOf(note) === index,
  );

  function closeDelete(next: boolean) {
    if (next) return;
    remove.reset();
    setConfirmOpen(false);
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success("Environment deleted", deleting.name);
        setConfirmOpen(false);
      },
    });
  }

  const addButton = (
    <PermittedButton size="sm" onClick={() => setEditing({ mode: "add" })} deniedReason={denials.createEnvironment}>
      <Plus aria-hidden />
      Add environment
    </PermittedButton>
  );

  return (
    <Card
      id="project-environments"
      title="Environments"
      description="Each secret has its own value in every environment."
      action={addButton}
    >
      {notes.map((note) => (
        <DeniedNote key={note} reason={note} />
      ))}
      {environments.length === 0 ? (
        <div className="p-4">
          <EmptyState
            icon={Layers}
            headingLevel={3}
            title="No environments"
            description="Add an environment, such as dev or prod, before adding secrets."
            className="py-10"
          />
        </div>
      ) : (
        <Table aria-label="Environments">
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Name</TableHead>
              <TableHead scope="col">Slug</TableHead>
              <TableHead scope="col" className="w-0 text-right">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {environments.map((env) => (
              <TableRow key={env.id || env.slug} className="hover:bg-hover/60">
                <TableCell className="font-medium">{env.name}</TableCell>
                <TableCell>
                  <code className="font-mono text-[13px] text-muted-foreground">{env.slug}</code>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  <PermittedButton
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Rename ${env.name}`}
                    deniedReason={denials.editEnvironment}
                    onClick={() => setEditing({ mode: "rename", environment: env })}
                  >
                    <Pencil aria-hidden />
                  </PermittedButton>
                  <PermittedButton
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Delete ${env.name}`}
                    deniedReason={denials.deleteEnvironment}
                    onClick={() => {
                      setDeleting(env);
                      setConfirmOpen(true);
                    }}
                    className="hover:text-destructive-subtle-foreground"
                  >
                    <Trash2 aria-hidden />
                  </PermittedButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <EnvironmentDialog
        projectId={project.id}
        environment={editing?.mode === "rename" ? editing.environment : undefined}
        open={editing !== undefined}
        onOpenChange={(next) => {
          if (!next) setEditing(undefined);
        }}
      />
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={closeDelete}
        title="Delete environment"
        confirmLabel="Delete environment"
        onConfirm={confirmDelete}
        pending={remove.isPending}
        removes={{
          name: deleting?.slug ?? "",
          counting: contents,
          sentence: (counts) => (
            <>
              Deleted with it: {counts} in <code className="font-mono">{deleting?.slug}</code>.
            </>
          ),
        }}
        description={
          <p>
            This permanently deletes <span className="font-medium text-foreground">{deleting?.name}</span> (
            <code className="font-mono">{deleting?.slug}</code>) and every secret value, folder and import in it.
          </p>
        }
        error={
          remove.error && !isApiError(remove.error, 401)
            ? errorSummary(remove.error, "Could not delete the environment")
            : undefined
        }
      />
    </Card>
  );
}
