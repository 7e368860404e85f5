import type { Project } from "@keyhold/contract";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { paths } from "@/config/paths";
import { formatDate, formatDateTime } from "@/lib/format";
import { EnvironmentBadges } from "./environment-badges";

const column = createColumnHelper<Project>();

const columns = [
  column.accessor("name", {
    header: "Name",
    cell: ({ row }) => (
      <div className="grid gap-0.5">
        <Link
          to={paths.projectHome.href(row.original.id)}
          className="w-fit rounded-sm font-medium text-foreground outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {row.original.name}
        </Link>
        {row.original.description ? (
          <span className="max-w-md truncate text-[13px] text-muted-foreground">{row.original.description}</span>
        ) : null}
      </div>
    ),
  }),
  column.accessor("slug", {
    header: "Slug",
    cell: ({ getValue }) => <code className="font-mono text-[13px] text-muted-foreground">{getValue()}</code>,
  }),
  column.accessor((row) => row.environments.map((env) => `${env.name} ${env.slug}`).join(" "), {
    id: "environments",
    header: "Environments",
    enableSorting: false,
    cell: ({ row }) => <EnvironmentBadges environments={row.original.environments} />,
  }),
  column.accessor("createdAt", {
    header: "Created",
    enableGlobalFilter: false,
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

interface ProjectsTableProps {
  projects: Project[];
  filter: string;
  onClearFilter: () => void;
}

export function ProjectsTable({ projects, filter, onClearFilter }: ProjectsTableProps) {
  // TanStack Table returns fresh functions each render by design; the compiler must not memoise around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: projects,
    columns,
    state: { globalFilter: filter },
    globalFilterFn: "includesString",
    initialState: { sorting: [{ id: "name", desc: false }] },
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const rows = table.getRowModel().rows;

  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
      <Table aria-label="Projects">
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
      {rows.length === 0 ? (
        <div className="flex flex-col items-center gap-3 border-t border-border px-4 py-10 text-center">
          <p className="text-sm text-muted-foreground">No projects match “{filter}”.</p>
          <Button size="sm" onClick={onClearFilter}>
            Clear filter
          </Button>
        </div>
      ) : null}
    </div>
  );
}
