import { Plus, Trash2 } from "lucide-react";
import { useFieldArray } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { IdentityForm } from "./identity-form-fields";

interface MetadataFieldsProps {
  form: IdentityForm;
  idPrefix: string;
}

/** Key/value rows; what is here when saving replaces all stored metadata. */
export function MetadataFields({ form, idPrefix }: MetadataFieldsProps) {
  const { control, register, formState } = form;
  const { fields, append, remove } = useFieldArray({ control, name: "metadata" });
  const rowErrors = formState.errors.metadata;

  return (
    <fieldset className="grid gap-2">
      <legend className="text-[13px] font-medium">Metadata</legend>
      <p className="-mt-1 text-[13px] text-muted-foreground">Key/value labels for finding and grouping identities.</p>

      {fields.length > 0 ? (
        <ul className="grid gap-2">
          {fields.map((row, index) => {
            const keyError = rowErrors?.[index]?.key?.message;
            const valueError = rowErrors?.[index]?.value?.message;
            const keyId = `${idPrefix}-metadata-${index}-key`;
            const valueId = `${idPrefix}-metadata-${index}-value`;
            return (
              <li key={row.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
                <div className="grid gap-1">
                  <label htmlFor={keyId} className="sr-only">
                    Key
                  </label>
                  <Input
                    id={keyId}
                    placeholder="Key"
                    className="font-mono text-[13px]"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={keyError ? true : undefined}
                    aria-describedby={keyError ? `${keyId}-error` : undefined}
                    {...register(`metadata.${index}.key`)}
                  />
                  {keyError ? (
                    <p id={`${keyId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                      {keyError}
                    </p>
                  ) : null}
                </div>
                <div className="grid gap-1">
                  <label htmlFor={valueId} className="sr-only">
                    Value
                  </label>
                  <Input
                    id={valueId}
                    placeholder="Value"
                    className="font-mono text-[13px]"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={valueError ? true : undefined}
                    aria-describedby={valueError ? `${valueId}-error` : undefined}
                    {...register(`metadata.${index}.value`)}
                  />
                  {valueError ? (
                    <p id={`${valueId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                      {valueError}
                    </p>
                  ) : null}
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove metadata row ${index + 1}`}
                  onClick={() => remove(index)}
                  className="text-muted-foreground hover:text-foreground"
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}

      <div>
        <Button size="sm" variant="secondary" onClick={() => append({ key: "", value: "" })}>
          <Plus aria-hidden />
          Add metadata
        </Button>
      </div>
    </fieldset>
  );
}
