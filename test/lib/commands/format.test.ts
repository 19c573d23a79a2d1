import { describe, expect, it } from "vitest";
import { commandNames } from "../../../lib/commands/command.ts";
import { formatCommand } from "../../../lib/commands/format.ts";
import { commandUsage } from "../../../lib/commands/usage.ts";

describe("formatCommand", () => {
  it("renders every command canonically", () => {
    expect(formatCommand({ name: "run" })).toBe("/locus run");
    expect(formatCommand({ name: "review" })).toBe("/locus review");
    expect(formatCommand({ name: "status" })).toBe("/locus status");
    expect(formatCommand({ name: "help" })).toBe("/locus help");
    expect(formatCommand({ name: "cancel" })).toBe("/locus cancel");
    expect(formatCommand({ name: "iterate", note: "" })).toBe("/locus iterate");
    expect(formatCommand({ name: "iterate", note: "keep it small" })).toBe("/locus iterate keep it small");
    expect(formatCommand({ name: "plan", goal: "Build\nthings" })).toBe("/locus plan Build\nthings");
    expect(formatCommand({ name: "ask", question: "Why?" })).toBe("/locus ask Why?");
    expect(formatCommand({ name: "approve" })).toBe("/locus approve");
    expect(formatCommand({ name: "approve", sequence: [2, 1, 3] })).toBe("/locus approve 2,1,3");
    expect(formatCommand({ name: "order", issues: [17, 15, 16] })).toBe("/locus order 17 15 16");
  });
});

describe("commandUsage", () => {
  it("has one line per command, in help order, each starting with the command", () => {
    expect(Object.keys(commandUsage)).toStrictEqual([...commandNames]);
    for (const name of commandNames) {
      expect(commandUsage[name]).toMatch(new RegExp(`^\`/locus ${name}[\` ]`));
      expect(commandUsage[name]).not.toContain("\n");
    }
  });
});
