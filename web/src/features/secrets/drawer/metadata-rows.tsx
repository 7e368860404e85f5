import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { SecretFormInput, SecretFormValues } from "./secret-form";

/** Key/value rows of the secret's metadata: add, edit and remove rows. */
export function MetadataRows() {
  const form = useFormContext<SecretFormInput, unknown, SecretFormValues>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "metadata" });
  const errors = form.formState.errors.metadata;

  return (
    <fieldset className="grid gap-3 sm:gap-2">
      <legend className="mb-2 text-[13px] font-medium">Metadata</legend>
      {fields.length === 0 ? <p className="text-[13px] text-muted-foreground">No metadata.</p> : null}
      {fields.map((row, index) => {
        const keyError = errors?.[index]?.key?.message;
        const n = index + 1;
        return (
          <div key={row.id} className="grid gap-1">
            {/* A narrow drawer puts the value under its key, at full width, so it can be read. */}
            <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1.5 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]">
              <Input
                {...form.register(`metadata.${index}.key`)}
                aria-label={`Metadata key ${n}`}
                aria-invalid={keyError ? true : undefined}
                aria-describedby={keyError ? `metadata-${index}-error` : undefined}
                placeholder="key"
                autoComplete="off"
                spellCheck={false}
                className="h-8 font-mono text-[13px]"
              />
              <Input
                {...form.register(`metadata.${index}.value`)}
                aria-label={`Metadata value ${n}`}
                placeholder="value"
                autoComplete="off"
                spellCheck={false}
                className="col-start-1 row-start-2 h-8 font-mono text-[13px] sm:col-start-auto sm:row-start-auto"
              />
              <Button
                variant="ghost"
                size="icon-sm"
                className="col-start-2 row-start-1 sm:col-start-auto sm:row-start-auto"
                aria-label={`Remove metadata row ${n}`}
                onClick={() => remove(index)}
              >
                <Trash2 aria-hidden />
              </Button>
            </div>
            {keyError ? (
              <p id={`metadata-${index}-error`} className="text-[13px] text-destructive-subtle-foreground">
                {keyError}
              </p>
            ) : null}
          </div>
        );
      })}
      {errors?.root?.message || errors?.message ? (
        <p className="text-[13px] text-destructive-subtle-foreground">{errors.root?.message ?? errors.message}</p>
      ) : null}
      <div>
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2 h-7 text-muted-foreground"
          onClick={() => append({ key: "", value: "" })}
        >
          <Plus aria-hidden />
          Add metadata
        </Button>
      </div>
    </fieldset>
  );
}
