import type { IdentityMembership } from "@keyhold/contract";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { Link } from "react-router";
import { IdentityName } from "@/components/identities/identity-name";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { formatDate, formatDateTime } from "@/lib/format";
import { cn } from "@/lib/cn";
import { namesakeIds } from "@/lib/identity-names";
import { AuthMethodBadges, DeleteProtectionBadge, RoleBadge } from "./identity-badges";

const column = createColumnHelper<IdentityMembership>();

/** The columns; identities whose name another on the page shares (`namesakes`) show a short id. */
const columnsFor = (namesakes: ReadonlySet<string>) => [
  column.accessor((row) => row.identity.name, {
    id: "name",
    header: "Name",
    cell: ({ row }) => (
      <Link
        to={paths.identity.href(row.original.identity.id)}
        className="rounded-sm font-medium text-foreground outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        <IdentityName
          name={row.original.identity.name}
          id={row.original.identity.id}
          namesake={namesakes.has(row.original.identity.id)}
        />
      </Link>
    ),
  }),
  column.accessor((row) => row.customRole?.slug ?? row.role, {
    id: "role",
    header: "Role",
    cell: ({ row }) => <RoleBadge role={row.original.customRole?.slug ?? row.original.role} />,
  }),
  column.accessor((row) => row.identity.authMethods, {
    id: "authMethods",
    header: "Auth methods",
    cell: ({ row }) => <AuthMethodBadges methods={row.original.identity.authMethods} />,
  }),
  column.accessor((row) => row.identity.hasDeleteProtection, {
    id: "deleteProtection",
    header: "Delete protection",
    cell: ({ getValue }) => <DeleteProtectionBadge on={getValue()} />,
  }),
  column.accessor("createdAt", {
    header: "Created",
    cell: ({ getValue }) => (
      <time
        dateTime={getValue()}
        title={formatDateTime(getValue())}
        className="text-[13px] text-muted-foreground tabular-nums"
      >
        {formatDate(getValue())}
      </time>
    ),
  }),
];

interface IdentitiesTableProps {
  /** One page, in the service's order. */
  identities: IdentityMembership[];
  /** Another page is on its way; this one stays, dimmed, until it arrives. */
  stale: boolean;
}

export function IdentitiesTable({ identities, stale }: IdentitiesTableProps) {
  // A server without delete protection has nothing to show in that column.
  const deleteProtection = useServerFeature("deleteProtection");
  // TanStack Table returns fresh functions each render by design; the compiler must not memoise around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: identities,
    columns: columnsFor(namesakeIds(identities.map((m) => m.identity))),
    state: { columnVisibility: { deleteProtection: deleteProtection.available } },
    getCoreRowModel: getCoreRowModel(),
  });
  const rows = table.getRowModel().rows;

  return (
    <div
      aria-busy={stale}
      className={cn(
        "overflow-hidden rounded-xl border border-border bg-card shadow-xs transition-opacity",
        stale && "opacity-60",
      )}
    >
      <Table aria-label="Identities">
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => (
                <TableHead key={header.id} scope="col">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} className="hover:bg-hover/60">
              {row.getVisibleCells().map((cell) => (
                <TableCell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
