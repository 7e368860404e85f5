import { shortId } from "@/lib/identity-names";

interface IdentityNameProps {
  name: string;
  id: string;
  /** Another identity shown beside it has the same name: its short id tells them apart. */
  namesake: boolean;
}

/** An identity's name, followed by the start of its id when another identity in view shares the name. */
export function IdentityName({ name, id, namesake }: IdentityNameProps) {
  if (!namesake) return <>{name}</>;
  // Read as one phrase ("ci-deployer, id 3f1c2a9b"); shown as the name and a small id.
  return (
    <>
      <span aria-hidden>
        {name}
        <span
          title={id}
          className="ml-1.5 inline-block rounded-sm bg-muted px-1 font-mono text-[11px] font-normal leading-4 text-muted-foreground"
        >
          {shortId(id)}
        </span>
      </span>
      <span className="sr-only">
        {name}, id {shortId(id)}
      </span>
    </>
  );
}
