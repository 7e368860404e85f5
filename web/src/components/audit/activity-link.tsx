import { History } from "lucide-react";
import { Link } from "react-router";
import { type ActivityOf, activityHref } from "@/config/audit-link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/cn";

interface ActivityLinkProps {
  of: ActivityOf;
  /** The visible text; "View activity" unless the place needs more. */
  children?: string;
  /** The accessible name, when the visible text alone would not say whose activity. */
  label?: string;
  className?: string;
  variant?: "secondary" | "ghost";
}

/** Opens the audit log filtered to one resource's events. */
export function ActivityLink({
  of,
  children = "View activity",
  label,
  className,
  variant = "secondary",
}: ActivityLinkProps) {
  return (
    <Link to={activityHref(of)} aria-label={label} className={cn(buttonVariants({ size: "sm", variant }), className)}>
      <History aria-hidden />
      {children}
    </Link>
  );
}
