import { type AnyEndpoint, ErrorBodySchema, endpointList, NoBody } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

type JsonSchema = z.core.JSONSchema.BaseSchema;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // Transforms and refinements have no JSON Schema form; they are described by their input type.
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
}

function parameters(schema: z.ZodType, location: "path" | "query") {
  const { properties = {}, required = [] } = jsonSchema(schema, "input");
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || required.includes(name),
    schema: property,
  }));
}

function operation(endpoint: AnyEndpoint) {
  const errorResponse = { content: { "application/json": { schema: jsonSchema(ErrorBodySchema, "output") } } };
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    // The sign-in endpoints take no bearer token: their credential is in the body.
    security: endpoint.auth === "none" ? [] : [{ bearerAuth: [] }],
    parameters: [...parameters(endpoint.params, "path"), ...parameters(endpoint.query, "query")],
    ...(endpoint.body !== NoBody && {
      requestBody: {
        required: true,
        content: { "application/json": { schema: jsonSchema(endpoint.body, "input") } },
      },
    }),
    ...(endpoint.permission && { "x-permission": endpoint.permission }),
    responses: {
      200: {
        description: "Success",
        content: { "application/json": { schema: jsonSchema(endpoint.response, "output") } },
      },
      default: { description: "Error", ...errorResponse },
    },
  };
}

/** The OpenAPI 3.1 document, generated from the contract rather than written by hand. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const endpoint of endpointList as readonly AnyEndpoint[]) {
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, ReturnType<typeof operation>>)[endpoint.method.toLowerCase()] =
      operation(endpoint);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Keyhold secrets service", version: "0.1.0" },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}

export function registerDocsRoute(app: FastifyInstance): void {
  const document = buildOpenApiDocument();
  app.get("/api/docs", async () => document);
}
