import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { Database } from "./schema.ts";

type Values<Name extends string> = Record<Name, string>;

/**
 * Runs a compiled read straight on the database's driver, without Kysely's hand-off of the
 * connection (a lock, a pool checkout and several promises per query: more than an indexed
 * read costs). Made once per prepared query and handle; a run answers undefined when it cannot
 * run the read safely that way, and the read then goes through Kysely.
 */
export type DirectRun = (parameters: readonly unknown[]) => unknown[] | Promise<unknown[]> | undefined;

const directReaders = new WeakMap<Kysely<Database>, (sql: string) => DirectRun | undefined>();

/** Lets prepared queries on `db` (not on its transactions, which are other handles) run through `reader`. */
export function readDirectly(db: Kysely<Database>, reader: (sql: string) => DirectRun | undefined): void {
  directReaders.set(db, reader);
}

interface Prepared<Row> {
  compiled: CompiledQuery<Row>;
  /** For each compiled parameter, the name whose value goes there (undefined: a constant). */
  slots: (string | undefined)[];
  direct: DirectRun | undefined;
}

/**
 * A query that Kysely builds and compiles once per database handle, then runs with new values:
 * the hot path skips the builder and the compiler, which cost several times an indexed read.
 * `build` gets one stand-in value per parameter name; each run puts the real values where the
 * stand-ins landed, so the SQL text is exactly the one Kysely produced, in either dialect.
 * Handles other than the one first seen (transactions) get their own compiled copy.
 */
export function preparedQuery<Row, Name extends string>(
  names: readonly Name[],
  build: (db: Kysely<Database>, values: Values<Name>) => Compilable<Row>,
): (db: Kysely<Database>, values: Values<Name>) => Promise<Row[]> {
  const standIns = Object.fromEntries(names.map((name) => [name, `\u0000${name}\u0000`])) as Values<Name>;
  const byHandle = new WeakMap<Kysely<Database>, Prepared<Row>>();

  function prepare(db: Kysely<Database>): Prepared<Row> {
    const compiled = build(db, standIns).compile();
    const slots = compiled.parameters.map((value) => names.find((name) => standIns[name] === value));
    for (const name of names) {
      if (!slots.includes(name)) throw new Error(`The prepared query does not use its parameter "${name}"`);
    }
    return { compiled, slots, direct: directReaders.get(db)?.(compiled.sql) };
  }

  return async (db, values) => {
    let prepared = byHandle.get(db);
    if (!prepared) {
      prepared = prepare(db);
      byHandle.set(db, prepared);
    }
    const { compiled, slots, direct } = prepared;
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i] as Name | undefined;
      return name === undefined ? value : values[name];
    });
    const rows = direct?.(parameters) as Row[] | Promise<Row[]> | undefined;
    return (await rows) ?? (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
