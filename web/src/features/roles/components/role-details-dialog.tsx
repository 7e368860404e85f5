import { zodResolver } from "@hookform/resolvers/zod";
import type { PermissionRuleInput, ProjectRole, ProjectRoleSummary } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { paths } from "@/config/paths";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useCreateRole, useUpdateRole } from "../mutations";
import { roleQueries } from "../queries";
import {
  copyableRules,
  copySummary,
  RoleFormSchema,
  type RoleFormInput,
  type RoleFormValues,
  roleFormFields,
  roleSlugFrom,
  toCreateBody,
  toFormValues,
  toUpdateBody,
} from "../role-form";

export type RoleDialogMode =
  | { kind: "create" }
  | { kind: "duplicate"; source: ProjectRoleSummary }
  | { kind: "edit"; role: ProjectRole };

interface RoleDetailsDialogProps {
  projectId: string;
  /** The dialog is open while a mode is set. */
  mode: RoleDialogMode | undefined;
  onClose: () => void;
}

const titles = { create: "Create role", duplicate: "Duplicate role", edit: "Edit role details" } as const;

/** Name, slug and description of a role: a new one, a copy of another (its rules included), or this one. */
export function RoleDetailsDialog({ projectId, mode, onClose }: RoleDetailsDialogProps) {
  return (
    <Dialog open={mode !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-lg">
        {mode ? <RoleDetailsForm key={mode.kind} projectId={projectId} mode={mode} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RoleDetailsForm({
  projectId,
  mode,
  onClose,
}: {
  projectId: string;
  mode: RoleDialogMode;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const createRole = useCreateRole(projectId);
  const editedRole = mode.kind === "edit" ? mode.role : undefined;
  const updateRole = useUpdateRole(projectId, editedRole ?? { id: "", slug: "" });
  // A copy takes the source's rules, which only the role's own endpoint returns.
  const source = useQuery({
    ...roleQueries.detail(projectId, mode.kind === "duplicate" ? mode.source.slug : ""),
    enabled: mode.kind === "duplicate",
  });
  const initial =
    mode.kind === "create"
      ? toFormValues()
      : mode.kind === "duplicate"
        ? toFormValues(mode.source, { duplicate: true })
        : toFormValues(mode.role);
  const form = useForm<RoleFormInput, unknown, RoleFormValues>({
    resolver: zodResolver(RoleFormSchema),
    defaultValues: initial,
    mode: "onTouched",
  });
  const pending = createRole.isPending || updateRole.isPending;
  const copied = source.data ? copyableRules(source.data.permissions as PermissionRuleInput[]) : undefined;
  const { errors, dirtyFields, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  // The slug follows the name until it is edited by hand (a new role only; an existing slug stays).
  const name = useWatch({ control: form.control, name: "name" });
  const slug = useWatch({ control: form.control, name: "slug" });
  useEffect(() => {
    if (mode.kind === "create" && !dirtyFields.slug) form.setValue("slug", roleSlugFrom(name));
  }, [form, mode.kind, name, dirtyFields.slug]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (mode.kind === "edit") {
        const role = await updateRole.mutateAsync(toUpdateBody(values, mode.role));
        toast.success("Role saved", role.name);
        onClose();
        if (role.slug !== mode.role.slug) navigate(paths.projectRole.href(projectId, role.slug), { replace: true });
        return;
      }
      const role = await createRole.mutateAsync(toCreateBody(values, copied?.rules ?? []));
      toast.success(mode.kind === "duplicate" ? "Role duplicated" : "Role created", role.name);
      onClose();
      navigate(paths.projectRole.href(projectId, role.slug));
    } catch (error) {
      showSubmitError(form, error, roleFormFields, "Could not save the role");
    }
  });

  const sourceBlocked = mode.kind === "duplicate" && !source.data;

  return (
    <>
      <DialogHeader>
        <DialogTitle>{titles[mode.kind]}</DialogTitle>
        <DialogDescription>
          {mode.kind === "create"
            ? "A new role grants nothing until you choose its permissions, next."
            : mode.kind === "duplicate"
              ? `A custom role with the rules of ${mode.source.name}, to change as you need.`
              : "The slug is how memberships and the API refer to the role."}
        </DialogDescription>
      </DialogHeader>
      <form id="role-details-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        {source.isError ? <FormAlert message={errorSummary(source.error, "Could not read the role to copy")} /> : null}
        <FormAlert message={errors.root?.server?.message} />
        <Field id="role-name" label="Name" error={errors.name?.message}>
          <Input {...form.register("name")} autoComplete="off" autoFocus />
        </Field>
        <Field
          id="role-slug"
          label="Slug"
          error={errors.slug?.message}
          description={
            <>
              Lowercase letters, digits and hyphens. Memberships refer to it as{" "}
              <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">{slug || "…"}</code>
            </>
          }
        >
          <Input {...form.register("slug")} className="font-mono" autoComplete="off" spellCheck={false} />
        </Field>
        <Field id="role-description" label="Description" error={errors.description?.message}>
          <Textarea {...form.register("description")} rows={2} placeholder="What this role is for (optional)" />
        </Field>
        {mode.kind === "duplicate" ? (
          <p className="text-[13px] text-muted-foreground" aria-live="polite">
            {source.isPending ? (
              <span className="inline-flex items-center gap-2">
                <Spinner /> Reading the rules of {mode.source.name}…
              </span>
            ) : copied ? (
              copySummary(copied, mode.source.name)
            ) : null}
          </p>
        ) : null}
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onClose)} disabled={pending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="role-details-form"
          variant="primary"
          disabled={pending || sourceBlocked}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          {mode.kind === "edit" ? "Save" : titles[mode.kind]}
        </Button>
      </DialogFooter>
    </>
  );
}
