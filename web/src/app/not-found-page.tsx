import { NotFound } from "@/components/errors/not-found";

export function NotFoundPage() {
  return (
    <NotFound
      title="There is nothing at this address"
      description="Check the link, or start again from the identities list."
    />
  );
}
