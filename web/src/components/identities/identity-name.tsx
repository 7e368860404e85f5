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
  return (
    <>
      {name}
      <span className="sr-only">, id </span>
      <span
        title={id}
        className="ml-1.5 inline-block rounded-sm bg-muted px-1 font-mono text-[11px] font-normal leading-4 text-muted-foreground"
      >
        {shortId(id)}
      </span>
    </>
  );
}
