import type { Project } from "@keyhold/contract";
import { AuditLogsRetentionBodySchema } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useUpdateAuditRetention } from "../mutations";
import { projectQueries } from "../queries";
import { Card, DeniedNote } from "./card";
import type { ProjectDenials } from "./use-project-denials";

type RetentionValues = z.infer<typeof AuditLogsRetentionBodySchema>;
const fields = ["auditLogsRetentionDays"] as const;

/** How long the project's audit events are kept: its own setting, or the organisation's default. */
export function AuditRetentionCard({ project, denials }: { project: Project; denials: ProjectDenials }) {
  const own = project.auditLogsRetentionDays ?? null;
  const orgDefault = useQuery({ ...projectQueries.orgAuditRetention(), enabled: own === null });
  const update = useUpdateAuditRetention(project.id);
  const form = useForm<RetentionValues>({
    resolver: zodResolver(AuditLogsRetentionBodySchema),
    values: { auditLogsRetentionDays: own ?? orgDefault.data ?? 90 },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const locked = denials.editSettings !== undefined;

  const onSubmit = form.handleSubmit(({ auditLogsRetentionDays }) =>
    update.mutateAsync(auditLogsRetentionDays).then(
      () => toast.success("Audit retention saved", `Events are kept ${auditLogsRetentionDays} days.`),
      (error: unknown) => showSubmitError(form, error, fields, "Could not save the retention"),
    ),
  );

  const current =
    own !== null
      ? `${own} ${own === 1 ? "day" : "days"} (this project's own setting)`
      : orgDefault.data !== undefined
        ? `Organization default: ${orgDefault.data} days`
        : orgDefault.isPending
          ? "Organization default"
          : "The server's default";

  return (
    <Card id="project-audit-retention" title="Audit log retention" description={current}>
      <DeniedNote reason={denials.editSettings} />
      <form noValidate onSubmit={onSubmit} className="grid gap-4 p-4" aria-labelledby="project-audit-retention">
        <FormAlert message={errors.root?.server?.message} />
        <Field
          id="project-audit-retention-days"
          label="Keep events for (days)"
          error={errors.auditLogsRetentionDays?.message}
          description="Older events are pruned on a schedule; the chain stays verifiable."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={3650}
            disabled={locked}
            className="w-32"
            {...form.register("auditLogsRetentionDays", { valueAsNumber: true })}
          />
        </Field>
        <div className="flex justify-end gap-2">
          {isDirty ? (
            <Button variant="secondary" size="sm" onClick={() => form.reset()} disabled={update.isPending}>
              Discard
            </Button>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            size="sm"
            disabled={locked || !isDirty || update.isPending}
            aria-busy={update.isPending || undefined}
          >
            {update.isPending ? <Spinner /> : null}
            Save retention
          </Button>
        </div>
      </form>
    </Card>
  );
}
