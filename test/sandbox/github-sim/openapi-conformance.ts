import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv } from "ajv";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Exchange } from "../../../sandbox/github-sim/index.ts";

// Checks simulator traffic against GitHub's published OpenAPI description (@octokit/openapi, api.github.com).
// The plain (non-dereferenced) document is used: 13 MB parses ~6x faster than the 73 MB deref one, and Ajv
// follows its $refs. Everything is loaded once per process, on first use.

type Json = Record<string, unknown>;

interface Operation {
  template: string;
  method: string;
  operation: Json;
  pattern: RegExp;
  literals: number;
}

interface Spec {
  doc: Json;
  operations: Operation[];
  ajv: Ajv;
  loadMs: number;
}

let spec: Spec | undefined;

// Known defects in the published description, each replaced by the schema GitHub actually honours.
const responseOverrides: Record<string, Json> = {
  // The inline Installation here says account is allOf [Simple User, Enterprise]; the component schema says anyOf.
  "GET /app/installations 200": { type: "array", items: { $ref: "api#/components/schemas/installation" } },
};
const validators = new WeakMap<object, ValidateFunction>();

export function loadSpec(): Spec {
  if (spec) return spec;
  const started = performance.now();
  const entry = createRequire(import.meta.url).resolve("@octokit/openapi/package.json");
  const doc = JSON.parse(
    readFileSync(join(dirname(entry), "generated", "api.github.com.json"), "utf8"),
  ) as Json;
  // Examples are a third of the document and never validated against; dropping them halves Ajv's setup.
  delete (doc.components as Json).examples;
  normaliseNullable(doc);
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    formats: { "repo.nwo": /^[^/]+\/[^/]+$/ },
  });
  const addFormats = addFormatsModule as unknown as (instance: Ajv) => void;
  addFormats(ajv);
  // Only the shared components are registered (Ajv would otherwise walk every path); path-level
  // schemas are compiled on demand with their "#/components/..." references pointed at "api".
  const { schemas, responses, parameters: sharedParameters } = doc.components as Json;
  ajv.addSchema({ components: { schemas, responses, parameters: sharedParameters } }, "api");
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const source = template
        .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace(/\{[^}]+\}/g, (name) => (name === "{path}" || name === "{ref}" ? "(.+)" : "([^/]+)"));
      operations.push({
        template,
        method: method.toUpperCase(),
        operation: operation as Json,
        pattern: new RegExp(`^${source}$`),
        literals: template.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
      });
    }
  }
  operations.sort((a, b) => b.literals - a.literals);
  spec = { doc, operations, ajv, loadMs: performance.now() - started };
  return spec;
}

// OpenAPI 3.0 `nullable` is not JSON Schema: Ajv accepts it only beside `type` and never adds null to an enum.
function normaliseNullable(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(normaliseNullable);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as Json;
  for (const value of Object.values(schema)) normaliseNullable(value);
  if (schema.nullable !== true) return;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  if (schema.type === undefined) {
    const rest = { ...schema };
    delete rest.nullable;
    for (const key of Object.keys(schema)) delete schema[key];
    schema.anyOf = [rest, { type: "null" }];
  }
}

function deref(doc: Json, value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== "string") return value;
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) {
    node = (node as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node as Json;
}

function compileInline(schema: Json): ValidateFunction {
  const cached = validators.get(schema);
  if (cached) return cached;
  const rebased = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"api#/')) as Json;
  const compiled = loadSpec().ajv.compile(rebased);
  validators.set(schema, compiled);
  return compiled;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`)
    .join("; ");
}

interface Parameter {
  name: string;
  in: string;
  schema?: Json;
}

function parameters(doc: Json, operation: Json): Parameter[] {
  return ((operation.parameters as Json[] | undefined) ?? []).map(
    (parameter) => deref(doc, parameter) as unknown as Parameter,
  );
}

function coerce(value: string, schema: Json | undefined): unknown {
  if (schema?.type === "integer" || schema?.type === "number")
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (schema?.type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

export interface ConformanceChecker {
  observe: (exchange: Exchange) => void;
  readonly violations: string[];
  readonly operationsSeen: Set<string>;
  assertClean: () => void;
}

export function createConformanceChecker(): ConformanceChecker {
  const violations: string[] = [];
  const operationsSeen = new Set<string>();

  function check(exchange: Exchange): void {
    const { doc, operations } = loadSpec();
    const where = `${exchange.method} ${exchange.path}`;
    const match = operations.find(
      (candidate) => candidate.method === exchange.method && candidate.pattern.test(exchange.path),
    );
    if (!match) {
      violations.push(`${where}: no such operation in GitHub's OpenAPI description`);
      return;
    }
    const { operation } = match;
    operationsSeen.add(`${match.method} ${match.template}`);
    const params = parameters(doc, operation);
    const values = match.pattern.exec(exchange.path)?.slice(1) ?? [];
    const pathNames = [...match.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] ?? "");
    pathNames.forEach((name, index) => {
      const declared = params.find((parameter) => parameter.in === "path" && parameter.name === name);
      if (!declared) violations.push(`${where}: path parameter ${name} is not declared`);
      else if (
        declared.schema &&
        !compileInline(declared.schema)(coerce(decodeURIComponent(values[index] ?? ""), declared.schema))
      ) {
        violations.push(`${where}: path parameter ${name}=${values[index] ?? ""} does not match its schema`);
      }
    });
    for (const [key, value] of exchange.query) {
      const declared = params.find((parameter) => parameter.in === "query" && parameter.name === key);
      if (!declared) violations.push(`${where}: unknown query parameter ${key}`);
      else if (declared.schema && !compileInline(declared.schema)(coerce(value, declared.schema))) {
        violations.push(`${where}: query parameter ${key}=${value} does not match its schema`);
      }
    }
    const requestBody = operation.requestBody as Json | undefined;
    if (exchange.requestBody !== undefined) {
      const content = (requestBody ? deref(doc, requestBody).content : undefined) as Json | undefined;
      if (!content?.["application/json"]) {
        violations.push(`${where}: sends a JSON body but the operation takes none`);
      } else {
        const validate = compileInline((content["application/json"] as Json).schema as Json);
        if (!validate(exchange.requestBody))
          violations.push(`${where}: request body invalid: ${describeErrors(validate)}`);
      }
    }
    if (exchange.injected) return;
    const responses = operation.responses as Record<string, Json>;
    const declared = responses[String(exchange.status)];
    // Conditional requests are documented once for the whole API rather than per operation.
    const conditional =
      exchange.status === 304 &&
      exchange.method === "GET" &&
      (exchange.responseBody === undefined || exchange.responseBody === "");
    if (!declared && conditional) return;
    if (!declared) {
      if (exchange.status < 400)
        violations.push(`${where}: status ${exchange.status} is not a documented response`);
      else if (!isErrorBody(exchange.responseBody))
        violations.push(`${where}: error ${exchange.status} without GitHub's error body`);
      return;
    }
    const content = deref(doc, declared).content as Json | undefined;
    if (!content) {
      if (exchange.responseBody !== undefined && exchange.responseBody !== "") {
        violations.push(`${where}: status ${exchange.status} must have no body`);
      }
      return;
    }
    const contentType = String(exchange.responseHeaders["content-type"] ?? "");
    if (!contentType.startsWith("application/json")) return;
    if (!content["application/json"]) {
      violations.push(`${where}: JSON response not documented for ${exchange.status}`);
      return;
    }
    const override = responseOverrides[`${match.method} ${match.template} ${exchange.status}`];
    const validate = compileInline(override ?? ((content["application/json"] as Json).schema as Json));
    if (!validate(exchange.responseBody))
      violations.push(`${where}: ${exchange.status} response invalid: ${describeErrors(validate)}`);
  }

  return {
    violations,
    operationsSeen,
    observe(exchange) {
      if (exchange.graphql) return;
      try {
        check(exchange);
      } catch (error) {
        violations.push(
          `${exchange.method} ${exchange.path}: checker failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    assertClean() {
      if (violations.length > 0) throw new Error(`OpenAPI conformance violations:\n${violations.join("\n")}`);
    },
  };
}

function isErrorBody(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as Json).message === "string" &&
    typeof (body as Json).documentation_url === "string"
  );
}
