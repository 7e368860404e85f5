import { LockKeyhole } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";

/** A masked value; `changed`: a new value is staged (it is in memory, not yet saved). */
export function MaskedValue({ changed = false }: { changed?: boolean }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span className="block truncate font-mono text-[13px] tracking-widest text-muted-foreground select-none">
        <span aria-hidden>••••••••••••</span>
        <span className="sr-only">Value masked</span>
      </span>
      {changed ? (
        <span className="shrink-0 rounded-sm bg-accent-subtle px-1 text-xs font-medium text-accent-subtle-foreground">
          new value
        </span>
      ) : null}
    </span>
  );
}

/** A staged new value, revealed: it is shown from memory (it is not on the server yet). */
export function StagedValue({ value }: { value: string }) {
  return (
    <span className="block truncate font-mono text-[13px]" title={value}>
      {value === "" ? <span className="text-muted-foreground italic">empty</span> : value}
    </span>
  );
}

/** The caller may see that the secret exists, not its value. */
export function HiddenValue() {
  return (
    <span className="flex min-w-0 items-center gap-1.5 text-[13px] text-muted-foreground">
      <LockKeyhole aria-hidden className="size-3.5 shrink-0" />
      <span className="truncate">Hidden by permission</span>
    </span>
  );
}

/** The value, read when revealed; the cache forgets it once the row no longer shows it. */
export function RevealedValue({ folder, secretKey }: { folder: SecretFolder; secretKey: string }) {
  const value = useQuery(secretQueries.value(folder, secretKey));
  if (value.isPending) {
    return (
      <span className="inline-flex items-center gap-2 text-[13px] text-muted-foreground">
        <Spinner /> Reading the value…
      </span>
    );
  }
  if (value.isError) {
    return (
      <span role="alert" className="block truncate text-[13px] text-destructive-subtle-foreground">
        {errorSummary(value.error, "Could not read the value")}
      </span>
    );
  }
  if (value.data.secretValueHidden) return <HiddenValue />;
  const text = value.data.secretValue;
  return (
    <span className="block truncate font-mono text-[13px]" title={text}>
      {text === "" ? <span className="text-muted-foreground italic">empty</span> : text}
    </span>
  );
}

/** Leaves an inline edit: runs `then` at once when its value is unchanged, else once the person agrees to discard it. */
export type LeaveEdit = ((then: () => void) => void) | undefined;
