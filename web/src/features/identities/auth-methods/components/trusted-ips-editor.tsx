import { useQuery } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { type UseFormReturn, useFieldArray, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FieldSpec } from "../descriptor";
import type { AuthMethodFormValues, TrustedIpRow } from "../form";
import { authMethodQueries } from "../queries";
import { checkTrustedIps } from "../trusted-ips";
import { errorAt } from "./field-error";

interface TrustedIpsEditorProps {
  form: UseFormReturn<AuthMethodFormValues>;
  field: FieldSpec;
  idPrefix: string;
  description?: string | undefined;
}

/**
 * One row per address or range; each row says what it will be saved as (host bits cleared), and
 * repeats and rows inside another row's block are flagged.
 */
export function TrustedIpsEditor({ form, field, idPrefix, description }: TrustedIpsEditorProps) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: field.name as never });
  const rows = (useWatch({ control: form.control, name: field.name }) ?? []) as TrustedIpRow[];
  const check = checkTrustedIps(rows.map((row) => row.ipAddress));
  const listError = errorAt(form.formState.errors, field.name);
  const descriptionId = `${idPrefix}-${field.name}-description`;
  // The address the service sees for this browser (read once for the whole form).
  const mine = useQuery(authMethodQueries.clientAddress()).data?.address;

  return (
    <fieldset className="grid gap-2" aria-describedby={descriptionId}>
      <legend className="mb-2 text-[13px] font-medium leading-none">{field.label}</legend>
      <ul className="grid gap-2">
        {fields.map((item, index) => {
          const inputId = `${idPrefix}-${field.name}-${index}`;
          const error = errorAt(form.formState.errors, `${field.name}.${index}.ipAddress`);
          const row = check.rows[index];
          const typed = rows[index]?.ipAddress.trim() ?? "";
          const live = row?.error?.startsWith("Same range") ? row.error : undefined;
          const shown = error ?? live;
          const cover = row?.coveredBy === undefined ? undefined : check.rows[row.coveredBy]?.value;
          const noteIds = [
            shown && `${inputId}-error`,
            !shown && cover && `${inputId}-covered`,
            !shown && row?.value && row.value !== typed && `${inputId}-saved`,
          ].filter(Boolean);
          return (
            <li key={item.id} className="grid gap-1">
              <div className="flex items-center gap-2">
                <Input
                  id={inputId}
                  aria-label={`${field.label}, row ${index + 1}`}
                  aria-invalid={shown ? true : undefined}
                  aria-describedby={noteIds.join(" ") || undefined}
                  className="font-mono text-[13px]"
                  autoComplete="off"
                  spellCheck={false}
                  {...form.register(`${field.name}.${index}.ipAddress`)}
                />
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove ${typed || `row ${index + 1}`}`}
                  onClick={() => remove(index)}
                >
                  <X aria-hidden />
                </Button>
              </div>
              {shown ? (
                <p id={`${inputId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                  {shown}
                </p>
              ) : (
                <>
                  {cover !== undefined && row?.coveredBy !== undefined ? (
                    <p id={`${inputId}-covered`} className="text-[13px] text-warning-subtle-foreground">
                      Inside <span className="font-mono">{cover}</span> (row {row.coveredBy + 1}): this entry adds
                      nothing.
                    </p>
                  ) : null}
                  {row?.value && row.value !== typed ? (
                    <p id={`${inputId}-saved`} className="text-[13px] text-muted-foreground">
                      Saved as <span className="font-mono">{row.value}</span>
                      {row.hostBitsCleared ? " (host bits cleared: the same block)" : null}
                    </p>
                  ) : null}
                </>
              )}
            </li>
          );
        })}
      </ul>
      {listError ? <p className="text-[13px] text-destructive-subtle-foreground">{listError}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={descriptionId} className="text-[13px] text-muted-foreground">
          {description}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={mine === undefined}
            aria-label={`Add my address to ${field.label}`}
            title={mine === undefined ? undefined : `Adds ${mine}, the address the service sees for you`}
            onClick={() => mine && append({ ipAddress: mine } as never)}
          >
            <Plus aria-hidden />
            Add my address
          </Button>
          <Button variant="secondary" size="sm" onClick={() => append({ ipAddress: "" } as never)}>
            <Plus aria-hidden />
            Add address
          </Button>
        </div>
      </div>
    </fieldset>
  );
}
