import { zodResolver } from "@hookform/resolvers/zod";
import type { Environment } from "@keyhold/contract";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { secretsApi } from "../../api";
import { type CopyValueFormValues, CopyValueFormSchema, failureSummary, namesOf } from "../across-forms";
import { useWriteAcross } from "../mutations";
import type { OverviewRow } from "../overview-rows";
import { EnvironmentChoices } from "./environment-choices";

interface CopyValueDialogProps {
  projectId: string;
  secretPath: string;
  environments: readonly Environment[];
  row: OverviewRow | undefined;
  initial: { secretKey: string; from: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** A value withheld on read: the caller may see the secret but not its value. */
class HiddenValueError extends Error {
  constructor() {
    super("Your permissions let you see this secret but not read its value.");
  }
}

/**
 * Copies one environment's value of a key to others, without showing it: the value is read
 * once, on confirming, and written as one batch per target environment (created where the key
 * is missing, replaced where it is there).
 */
export function CopyValueDialog({ open, onOpenChange, ...props }: CopyValueDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {open ? <CopyValueForm {...props} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CopyValueForm({
  projectId,
  secretPath,
  environments,
  row,
  initial,
  onClose,
}: Omit<CopyValueDialogProps, "open" | "onOpenChange"> & { onClose: () => void }) {
  const write = useWriteAcross(projectId, secretPath);
  const { secretKey, from } = initial;
  const source = environments.find((env) => env.slug === from);
  const cellOf = (slug: string) => row?.cells[environments.findIndex((env) => env.slug === slug)];
  const sameAsSource = (slug: string) => {
    const cell = cellOf(slug);
    const mine = cellOf(from);
    return (
      row?.comparison === "equal" ||
      (cell?.kind === "present" && mine?.kind === "present" && cell.group !== undefined && cell.group === mine.group)
    );
  };
  const others = environments.filter((env) => env.slug !== from);
  const form = useForm<CopyValueFormValues>({
    resolver: zodResolver(CopyValueFormSchema),
    // Preselected: where the key is missing or its value differs.
    defaultValues: {
      targets: others
        .filter((env) => cellOf(env.slug)?.kind === "missing" || !sameAsSource(env.slug))
        .map((env) => env.slug),
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ targets }) => {
    try {
      const read = await secretsApi.reveal({ projectId, environment: from, secretPath }, secretKey);
      if (read.secretValueHidden) throw new HiddenValueError();
      const items = [{ secretKey, secretValue: read.secretValue }];
      const outcome = await write.mutateAsync(targets.map((environment) => ({ environment, mode: "upsert", items })));
      const failed = failureSummary(outcome, environments, (error) => errorSummary(error, "not written"));
      if (outcome.written.length > 0) {
        toast.success(
          `Copied ${secretKey}`,
          `From ${source?.name ?? from} to ${namesOf(outcome.written, environments)}.`,
        );
      }
      if (failed) {
        form.setValue(
          "targets",
          outcome.failed.map(({ environment }) => environment),
        );
        form.setError("root.server", { message: `Not copied to ${failed}` });
        return;
      }
      onClose();
    } catch (error) {
      form.setError("root.server", { message: errorSummary(error, "Could not copy the value") });
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Copy {secretKey} to other environments</DialogTitle>
        <DialogDescription>
          The value in {source?.name ?? from} replaces the value in each environment you pick, or is added where the key
          is missing. It is not shown.
        </DialogDescription>
      </DialogHeader>
      <form id="copy-value-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <EnvironmentChoices
          legend="Copy to"
          environments={others}
          register={form.register("targets")}
          unavailable={() => undefined}
          note={(slug) => {
            const cell = cellOf(slug);
            if (cell?.kind === "missing") return "Adds the key";
            if (cell?.kind !== "present") return undefined;
            return sameAsSource(slug) ? "Same value already" : "Replaces its value";
          }}
          error={errors.targets?.message}
        />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose} disabled={write.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="copy-value-form"
          variant="primary"
          disabled={write.isPending}
          aria-busy={write.isPending || undefined}
        >
          {write.isPending ? <Spinner /> : null}
          Copy value
        </Button>
      </DialogFooter>
    </>
  );
}
