import { z } from "zod";
import type { KeyPath } from "./yaml-positions.ts";

export type RawConfig = Readonly<Record<string, unknown>>;

export interface KeyAudit {
  /** The input with known keys written empty (`key:` with no value) removed, so their defaults apply. */
  readonly cleaned: RawConfig;
  /** Keys the schema does not know; their values are kept as they are. */
  readonly unknown: readonly KeyPath[];
  /** `__proto__` keys, dropped: a config object must not be able to carry a prototype. */
  readonly dropped: readonly KeyPath[];
  /** Keys with a default that the input leaves out; a missing group is listed once, not key by key. */
  readonly missing: readonly KeyPath[];
}

/** Compares a parsed file with the schema's key tree. Pure: the input is not modified. */
export function auditKeys(raw: RawConfig, schema: z.ZodType): KeyAudit {
  const found: Found = { unknown: [], dropped: [], missing: [] };
  const cleaned = walk(raw, shapeOf(schema) ?? {}, [], found);
  return { cleaned, ...found };
}

interface Found {
  unknown: KeyPath[];
  dropped: KeyPath[];
  missing: KeyPath[];
}

function walk(
  raw: RawConfig,
  shape: Readonly<Record<string, z.ZodType>>,
  path: KeyPath,
  found: Found,
): RawConfig {
  const entries: [string, unknown][] = [];
  const missingWithin = new Map<string, KeyPath[]>();
  for (const [key, value] of Object.entries(raw)) {
    if (key === "__proto__") {
      found.dropped.push([...path, key]);
      continue;
    }
    const field = shape[key];
    if (field === undefined) {
      found.unknown.push([...path, key]);
      entries.push([key, value]);
      continue;
    }
    // `agent:` followed only by commented-out lines parses as null; it means "not set", not "invalid".
    if (value === null) continue;
    const inner = shapeOf(field);
    if (inner === undefined || !isPlainObject(value)) {
      entries.push([key, value]);
      continue;
    }
    // Unknown and dropped keys go straight into the shared lists; missing ones are held back so
    // the warning can list them in schema order.
    const nested: Found = { ...found, missing: [] };
    entries.push([key, walk(value, inner, [...path, key], nested)]);
    missingWithin.set(key, nested.missing);
  }
  // In schema order, so the warning reads like the documentation.
  for (const [key, field] of Object.entries(shape)) {
    const written = entries.some(([entry]) => entry === key);
    if (written) found.missing.push(...(missingWithin.get(key) ?? []));
    else if (hasDefault(field)) found.missing.push([...path, key]);
  }
  return Object.fromEntries(entries);
}

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional) {
    return unwrap(schema.unwrap() as z.ZodType);
  }
  return schema;
}

function shapeOf(schema: z.ZodType): Readonly<Record<string, z.ZodType>> | undefined {
  const inner = unwrap(schema);
  return inner instanceof z.ZodObject ? inner.shape : undefined;
}

function hasDefault(schema: z.ZodType): boolean {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
