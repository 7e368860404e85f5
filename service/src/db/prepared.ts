import type { Compilable, CompiledQuery, Kysely } from "kysely";

/**
 * A query built and compiled by Kysely once, then run with new values: the hot path skips
 * the builder and the compiler (which cost more than an indexed read). `build` receives one
 * stand-in value per parameter name; each run swaps the stand-ins for the real values, so the
 * SQL text is exactly the one Kysely produced, in either dialect.
 */
export function prepareQuery<Row, Name extends string>(
  db: Kysely<unknown>,
  names: readonly Name[],
  build: (values: Record<Name, string>) => Compilable<Row>,
): (values: Record<Name, string>) => Promise<Row | undefined> {
  const standIns = Object.fromEntries(names.map((name) => [name, `\u0000${name}\u0000`])) as Record<Name, string>;
  const compiled: CompiledQuery<Row> = build(standIns).compile();
  const slots = compiled.parameters.map((value) => names.find((name) => standIns[name] === value));
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`The prepared query does not use its parameter "${name}"`);
  }
  return async (values) => {
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i];
      return name === undefined ? value : values[name];
    });
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows[0];
  };
}
