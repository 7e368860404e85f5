import { FileQuestion } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "@/components/layout/page-header";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { paths } from "@/config/paths";

interface NotFoundProps {
  title: string;
  description: string;
}

/** What an unknown address or a deleted resource shows, with a way back. */
export function NotFound({ title, description }: NotFoundProps) {
  return (
    <div className="grid gap-6">
      <PageHeader title="Page not found" />
      <EmptyState
        icon={FileQuestion}
        title={title}
        description={description}
        action={
          <Link to={paths.identities.href()} className={buttonVariants({ size: "sm" })}>
            Go to identities
          </Link>
        }
      />
    </div>
  );
}
