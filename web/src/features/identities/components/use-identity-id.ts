import { useParams } from "react-router";

/** The `:identityId` of the identity routes. */
export function useIdentityId(): string {
  const { identityId } = useParams();
  if (!identityId) throw new Error("The identity routes need an :identityId parameter");
  return identityId;
}
