import { type ComponentProps, useId } from "react";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/cn";

type GuardedButtonProps = ComponentProps<typeof Button> & {
  /** Why the signed-in identity may not use this control; the button is inert when set. */
  deniedReason?: string | undefined;
};

/**
 * A button the signed-in identity may not be allowed to use. When it is not, the button stays
 * focusable (aria-disabled rather than disabled) so the reason can be read: in a tooltip on
 * hover and focus, and as its description for screen readers.
 */
export function GuardedButton({ deniedReason, onClick, ...props }: GuardedButtonProps) {
  const reasonId = useId();
  if (!deniedReason) return <Button onClick={onClick} {...props} />;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          {...props}
          aria-disabled="true"
          aria-describedby={reasonId}
          className={cn(props.className, "cursor-not-allowed")}
          onClick={(event) => event.preventDefault()}
        />
      </TooltipTrigger>
      <TooltipContent className="max-w-64">{deniedReason}</TooltipContent>
      <span id={reasonId} className="sr-only">
        {deniedReason}
      </span>
    </Tooltip>
  );
}
