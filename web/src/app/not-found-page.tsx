import { FileQuestion } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/page-header";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { paths } from "@/config/paths";

export function NotFoundPage() {
  return (
    <div className="grid gap-6">
      <PageHeader title="Page not found" />
      <EmptyState
        icon={FileQuestion}
        title="There is nothing at this address"
        description="Check the link, or start again from the identities list."
        action={
          <Link to={paths.identities.href()} className={buttonVariants({ size: "sm" })}>
            Go to identities
          </Link>
        }
      />
    </div>
  );
}
