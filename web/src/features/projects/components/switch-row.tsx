import type { ComponentProps, ReactNode } from "react";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";

interface SwitchRowProps extends Pick<ComponentProps<typeof Switch>, "ref" | "onBlur" | "disabled"> {
  id: string;
  label: string;
  description: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** A labelled on/off setting with a line of explanation. */
export function SwitchRow({ id, label, description, ...switchProps }: SwitchRowProps) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-border bg-surface p-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-[13px] text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-description`} {...switchProps} />
    </div>
  );
}
