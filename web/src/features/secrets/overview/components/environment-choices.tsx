import type { Environment } from "@keyhold/contract";
import type { UseFormRegisterReturn } from "react-hook-form";

interface EnvironmentChoicesProps {
  legend: string;
  environments: readonly Environment[];
  register: UseFormRegisterReturn;
  /** Per environment slug: why it cannot be picked (shown beside it); undefined when it can. */
  unavailable: (slug: string) => string | undefined;
  /** Per environment slug: a note beside it (what picking it does). */
  note?: (slug: string) => string | undefined;
  error: string | undefined;
}

/** The project's environments as checkboxes, for writing to several at once. */
export function EnvironmentChoices({
  legend,
  environments,
  register,
  unavailable,
  note,
  error,
}: EnvironmentChoicesProps) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="grid gap-1.5">
        {environments.map((env) => {
          const reason = unavailable(env.slug);
          const said = reason ?? note?.(env.slug);
          return (
            <label
              key={env.id}
              className="flex min-h-9 cursor-pointer items-center gap-2.5 rounded-md border border-border bg-card px-3 text-[13px] has-checked:border-accent has-checked:bg-accent-subtle has-disabled:cursor-not-allowed has-disabled:opacity-60 has-focus-visible:ring-2 has-focus-visible:ring-ring"
            >
              <input
                type="checkbox"
                value={env.slug}
                disabled={reason !== undefined}
                {...register}
                className="size-3.5 accent-accent"
              />
              <span className="font-medium">{env.name}</span>
              <span className="font-mono text-xs text-muted-foreground">{env.slug}</span>
              {said ? <span className="ml-auto text-xs text-muted-foreground">{said}</span> : null}
            </label>
          );
        })}
      </div>
      {error ? <p className="text-[13px] text-destructive-subtle-foreground">{error}</p> : null}
    </fieldset>
  );
}
