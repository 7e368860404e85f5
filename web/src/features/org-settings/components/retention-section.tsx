import type { Project } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useUpdateOrgRetention } from "../mutations";
import { auditSettingsQueries } from "../queries";
import {
  describeDays,
  type RetentionFormInput,
  RetentionFormSchema,
  type RetentionFormValues,
  toRetentionFormValues,
} from "../retention-form";
import { InlineError, SettingsSection, UnavailableNote } from "@/components/layout/settings-section";

/** How long events are kept: the organisation's default, and the projects that keep their own. */
export function RetentionSection() {
  const orgRetention = useServerFeature("orgAuditRetention");
  return (
    <SettingsSection
      id="audit-retention"
      title="Retention"
      description="Events older than their retention are pruned on a schedule; a signed checkpoint takes their place, so the chain stays verifiable."
    >
      <div className="grid gap-5 p-4">
        {orgRetention.available ? (
          <OrgRetention />
        ) : (
          <UnavailableNote>
            {orgRetention.reason} Each project's own retention is listed below; the others keep what the server's plan
            allows.
          </UnavailableNote>
        )}
        <ProjectOverrides />
      </div>
    </SettingsSection>
  );
}

function OrgRetention() {
  const query = useQuery(auditSettingsQueries.retention());
  if (query.isPending) {
    return (
      <div className="grid gap-2" aria-busy="true">
        <span className="sr-only" role="status">
          Loading the retention…
        </span>
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-9 w-full max-w-56" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <InlineError onRetry={() => void query.refetch()}>
        {errorSummary(query.error, "Could not load the organization's retention")}
      </InlineError>
    );
  }
  return <OrgRetentionForm days={query.data} />;
}

function OrgRetentionForm({ days }: { days: number }) {
  const update = useUpdateOrgRetention();
  const form = useForm<RetentionFormInput, unknown, RetentionFormValues>({
    resolver: zodResolver(RetentionFormSchema),
    // Follows the stored value after each save (and after someone else's change is read).
    values: toRetentionFormValues(days),
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit((values) =>
    update.mutateAsync(values.days).then(
      (saved) => toast.success("Retention saved", `Events are kept for ${describeDays(saved)}.`),
      (error: unknown) => showSubmitError(form, error, ["days"], "Could not save the retention"),
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" aria-label="Organization default retention">
      <FormAlert message={errors.root?.server?.message} />
      <Field
        id="audit-retention-days"
        label="Organization default (days)"
        description="Applies to every project without its own retention, and to events outside projects."
        error={errors.days?.message}
      >
        <Input inputMode="numeric" autoComplete="off" className="w-28 tabular-nums" {...form.register("days")} />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        {isDirty ? (
          <Button variant="secondary" size="sm" onClick={() => form.reset()} disabled={update.isPending}>
            Discard
          </Button>
        ) : null}
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={!isDirty || update.isPending}
          aria-busy={update.isPending || undefined}
        >
          {update.isPending ? <Spinner /> : null}
          Save retention
        </Button>
      </div>
    </form>
  );
}

function ProjectOverrides() {
  const query = useQuery(auditSettingsQueries.projects());
  return (
    <div className="grid gap-2 border-t border-border pt-4">
      <h4 id="audit-retention-projects" className="text-[13px] font-medium">
        Projects with their own retention
      </h4>
      <ProjectOverridesBody
        projects={query.data}
        pending={query.isPending}
        error={query.isError ? query.error : undefined}
        onRetry={() => void query.refetch()}
      />
    </div>
  );
}

interface OverridesBodyProps {
  projects: Project[] | undefined;
  pending: boolean;
  error: unknown;
  onRetry: () => void;
}

function ProjectOverridesBody({ projects, pending, error, onRetry }: OverridesBodyProps) {
  if (pending) {
    return (
      <div className="grid gap-2" aria-busy="true">
        <span className="sr-only" role="status">
          Loading the projects…
        </span>
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  }
  if (error !== undefined) {
    return <InlineError onRetry={onRetry}>{errorSummary(error, "Could not load the projects")}</InlineError>;
  }
  const own = (projects ?? [])
    .filter((project) => typeof project.auditLogsRetentionDays === "number")
    .sort((a, b) => a.name.localeCompare(b.name));
  if (own.length === 0) {
    return <p className="text-[13px] text-muted-foreground">Every project uses the organization default.</p>;
  }
  return (
    <ul aria-labelledby="audit-retention-projects" className="divide-y divide-border rounded-md border border-border">
      {own.map((project) => (
        <li key={project.id} className="flex items-center justify-between gap-3 px-3 py-2 text-[13px]">
          <Link
            to={paths.projectHome.href(project.id)}
            className="min-w-0 truncate rounded-sm font-medium text-accent-text underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {project.name}
          </Link>
          <span className="shrink-0 tabular-nums text-muted-foreground">
            {describeDays(project.auditLogsRetentionDays ?? 0)}
          </span>
        </li>
      ))}
    </ul>
  );
}
