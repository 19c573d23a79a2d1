import { z } from "zod";
import type { KeyPath } from "./yaml-positions.ts";

export type RawConfig = Readonly<Record<string, unknown>>;

export interface KeyAudit {
  /** The input with known keys written empty (`key:` with no value) removed, so their defaults apply. */
  readonly cleaned: RawConfig;
  /** Keys the schema does not know; their values are kept as they are. */
  readonly unknown: readonly KeyPath[];
  /** Keys with a default that the input leaves out; a missing group is listed once, not key by key. */
  readonly missing: readonly KeyPath[];
}

/** Compares a parsed file with the schema's key tree. Pure: the input is not modified. */
export function auditKeys(raw: RawConfig, schema: z.ZodType): KeyAudit {
  const unknown: KeyPath[] = [];
  const missing: KeyPath[] = [];
  const cleaned = walk(raw, shapeOf(schema) ?? {}, [], unknown, missing);
  return { cleaned, unknown, missing };
}

function walk(
  raw: RawConfig,
  shape: Readonly<Record<string, z.ZodType>>,
  path: KeyPath,
  unknown: KeyPath[],
  missing: KeyPath[],
): RawConfig {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(raw)) {
    const field = shape[key];
    if (field === undefined) {
      unknown.push([...path, key]);
      entries.push([key, value]);
      continue;
    }
    // `agent:` followed only by commented-out lines parses as null; it means "not set", not "invalid".
    if (value === null) continue;
    const inner = shapeOf(field);
    entries.push([
      key,
      inner !== undefined && isPlainObject(value)
        ? walk(value, inner, [...path, key], unknown, missing)
        : value,
    ]);
  }
  for (const [key, field] of Object.entries(shape)) {
    const present = entries.some(([written]) => written === key);
    if (!present && hasDefault(field)) missing.push([...path, key]);
  }
  // Object.fromEntries defines properties, so a `__proto__` key stays data instead of a prototype.
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
