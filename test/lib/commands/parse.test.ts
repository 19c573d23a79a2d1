import { describe, expect, it } from "vitest";
import { parseCommand } from "../../../lib/commands/parse.ts";
import type { LocusCommand, ParseResult } from "../../../lib/commands/command.ts";

function command(body: string): LocusCommand {
  const result = parseCommand(body);
  if (result.kind !== "command") throw new Error(`expected a command, got ${JSON.stringify(result)}`);
  return result.command;
}

function error(body: string): Extract<ParseResult, { kind: "error" }> {
  const result = parseCommand(body);
  if (result.kind !== "error") throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result;
}

describe("parseCommand: happy paths", () => {
  it.each(["run", "review", "fix-ci", "rebase", "status", "help", "cancel"] as const)(
    "parses /locus %s",
    (name) => {
      expect(parseCommand(`/locus ${name}`)).toStrictEqual({ kind: "command", command: { name }, notes: [] });
    },
  );

  it("parses iterate with and without a note", () => {
    expect(command("/locus iterate")).toStrictEqual({ name: "iterate", note: "" });
    expect(command("/locus iterate   keep the public API  ")).toStrictEqual({
      name: "iterate",
      note: "keep the public API",
    });
  });

  it("takes the iterate note from its own line only", () => {
    expect(command("/locus iterate fix the test\nThanks!")).toStrictEqual({
      name: "iterate",
      note: "fix the test",
    });
  });

  it("parses plan with a one-line goal", () => {
    expect(command("/locus plan Add sign-in with GitHub")).toStrictEqual({
      name: "plan",
      goal: "Add sign-in with GitHub",
    });
  });

  it("continues a plan goal on the following lines, keeping inner newlines", () => {
    const body = "/locus plan Build a CLI\n\n- parse flags\n  - nested\n\nThat's all.  \n";
    expect(command(body)).toStrictEqual({
      name: "plan",
      goal: "Build a CLI\n\n- parse flags\n  - nested\n\nThat's all.",
    });
  });

  it("takes a plan goal that starts on the next line", () => {
    expect(command("/locus plan\n  Build a CLI\nwith tests")).toStrictEqual({
      name: "plan",
      goal: "Build a CLI\nwith tests",
    });
  });

  it("keeps code blocks in a multi-line goal verbatim, even with /locus inside", () => {
    const body = "/locus plan Wrap this API:\n```ts\n/locus run\nexport function f() {}\n```";
    expect(command(body)).toStrictEqual({
      name: "plan",
      goal: "Wrap this API:\n```ts\n/locus run\nexport function f() {}\n```",
    });
  });

  it("ends a multi-line goal at the next command line", () => {
    const result = parseCommand("/locus plan Goal line\nmore detail\n/locus status\ntrailing");
    expect(result).toStrictEqual({
      kind: "command",
      command: { name: "plan", goal: "Goal line\nmore detail" },
      notes: ["Only the first /locus command is run; ignored: /locus status"],
    });
  });

  it("parses ask, multi-line", () => {
    expect(command("/locus ask Where is the retry policy?")).toStrictEqual({
      name: "ask",
      question: "Where is the retry policy?",
    });
    expect(command("/locus ask Why does\nthis fail?\r\n")).toStrictEqual({
      name: "ask",
      question: "Why does\nthis fail?",
    });
  });

  it("parses approve without a sequence", () => {
    expect(command("/locus approve")).toStrictEqual({ name: "approve" });
  });

  it.each(["2,1,3", "2 1 3", "2, 1, 3", " 2 ,1\t3 ", "2,,1,3"])("parses approve %j", (sequence) => {
    expect(command(`/locus approve ${sequence}`)).toStrictEqual({ name: "approve", sequence: [2, 1, 3] });
  });

  it.each(["17 15 16", "#17, #15, #16", "#17,#15 #16", "17,15,16", "  #17\t15 ,#16  "])(
    "parses order %j",
    (issues) => {
      expect(command(`/locus order ${issues}`)).toStrictEqual({ name: "order", issues: [17, 15, 16] });
    },
  );

  it("parses order with a single issue", () => {
    expect(command("/locus order #3")).toStrictEqual({ name: "order", issues: [3] });
  });
});

describe("parseCommand: command line syntax", () => {
  it("is case-insensitive in /locus and the verb", () => {
    expect(command("/Locus RUN")).toStrictEqual({ name: "run" });
    expect(command("/LOCUS Iterate Keep Case")).toStrictEqual({ name: "iterate", note: "Keep Case" });
  });

  it("tolerates extra spaces and tabs", () => {
    expect(command("   /locus \t  run \t ")).toStrictEqual({ name: "run" });
    expect(command("  /locus\tplan\tgoal\t")).toStrictEqual({ name: "plan", goal: "goal" });
  });

  it("handles CRLF and lone CR line endings", () => {
    expect(command("Please\r\n/locus run\r\nthanks")).toStrictEqual({ name: "run" });
    expect(command("Please\r/locus review\r")).toStrictEqual({ name: "review" });
    expect(command("/locus plan a\r\nb\r\n")).toStrictEqual({ name: "plan", goal: "a\nb" });
  });

  it("finds the command after prose lines", () => {
    expect(command("Looks good to me.\n\n/locus run")).toStrictEqual({ name: "run" });
    expect(command("Looks good to me.\n/locus run")).toStrictEqual({ name: "run" });
  });

  it.each([
    "",
    "   ",
    "hello world",
    "/locusrun",
    "/locus-run",
    "foo /locus run",
    "Please run /locus run",
    "/lo cus run",
    "- /locus run",
    "# /locus run",
    "\\/locus run",
    "*/locus run*",
  ])("does not treat %j as a command", (body) => {
    expect(parseCommand(body)).toStrictEqual({ kind: "none" });
  });
});

describe("parseCommand: errors", () => {
  it("lists the commands for a bare /locus", () => {
    const result = error("/locus");
    expect(result.verb).toBeUndefined();
    expect(result.message).toContain("`/locus` needs a command");
    for (const name of [
      "run",
      "iterate",
      "review",
      "plan",
      "approve",
      "ask",
      "order",
      "status",
      "help",
      "cancel",
    ]) {
      expect(result.message).toContain(`/locus ${name}`);
    }
    expect(error("  /LOCUS  \t").message).toContain("`/locus` needs a command");
  });

  it("suggests the closest command for a typo", () => {
    expect(error("/locus itterate")).toStrictEqual({
      kind: "error",
      message: "Unknown command `/locus itterate`. Did you mean `/locus iterate`?",
    });
    expect(error("/locus reveiw").message).toContain("Did you mean `/locus review`?");
    expect(error("/locus stats").message).toContain("Did you mean `/locus status`?");
    expect(error("/locus run!").message).toContain("Did you mean `/locus run`?");
    expect(error("/locus APROVE 1").message).toBe(
      "Unknown command `/locus APROVE`. Did you mean `/locus approve`?",
    );
  });

  it("suggests nothing when no command is close", () => {
    expect(error("/locus deploy now")).toStrictEqual({
      kind: "error",
      message: "Unknown command `/locus deploy`. `/locus help` lists the commands.",
    });
    expect(error("/locus ok").message).not.toContain("Did you mean");
  });

  it("keeps a hostile unknown verb inside its code span, shortened", () => {
    const message = error(`/locus ${"`".repeat(3)}${"x".repeat(500)}`).message;
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/^Unknown command ```` \/locus ```x+… ````\./);
  });

  it.each(["review", "fix-ci", "rebase", "status", "help", "cancel"] as const)(
    "refuses arguments after /locus %s",
    (name) => {
      expect(error(`/locus ${name} now please`)).toStrictEqual({
        kind: "error",
        verb: name,
        message:
          `\`/locus ${name}\` takes no arguments, but it is followed by \`now please\`. ` +
          `Write \`/locus ${name}\` on a line of its own; other text can go on the next line.`,
      });
    },
  );

  it("accepts prose on the line after a command that takes no arguments", () => {
    expect(command("/locus run\nThanks!")).toStrictEqual({ name: "run" });
  });

  it("needs a plan goal", () => {
    const expected = {
      kind: "error",
      verb: "plan",
      message:
        "`/locus plan` needs a goal, e.g. `/locus plan Add sign-in with GitHub`; " +
        "the goal may continue on the following lines.",
    };
    expect(error("/locus plan")).toStrictEqual(expected);
    expect(error("/locus plan   \n\n  \n")).toStrictEqual(expected);
    expect(error("/locus plan\n/locus run")).toStrictEqual(expected);
  });

  it("needs an ask question", () => {
    expect(error("/locus ask")).toStrictEqual({
      kind: "error",
      verb: "ask",
      message: "`/locus ask` needs a question, e.g. `/locus ask Where are webhooks verified?`",
    });
  });

  it.each([
    ["1,1", "position 1 is listed twice"],
    ["2 1 2", "position 2 is listed twice"],
    ["0", "positions start at 1"],
    ["1 00", "positions start at 1"],
    ["1 3", "position 2 is missing"],
    ["4", "position 1 is missing"],
    ["1 two", "`two` is not a position in the plan"],
    ["-1", "`-1` is not a position in the plan"],
    ["#1", "`#1` is not a position in the plan"],
    ["1.5", "`1.5` is not a position in the plan"],
    ["99999999999999999999", "`99999999999999999999` is not a position in the plan"],
    [",", "no positions were given"],
    ["LGTM!", "`LGTM!` is not a position in the plan"],
  ])("rejects /locus approve %s: %s", (argument, reason) => {
    expect(error(`/locus approve ${argument}`)).toStrictEqual({
      kind: "error",
      verb: "approve",
      message:
        "`/locus approve` takes nothing, to create the plan's issues in the plan's order, or every " +
        "item number of the plan once, in the order to create them, e.g. `/locus approve 2,1,3`; " +
        `here ${reason}.`,
    });
  });

  it.each([
    ["", "no issue numbers were given"],
    [" , ", "no issue numbers were given"],
    ["17 15 17", "#17 is listed twice"],
    ["#17 17", "#17 is listed twice"],
    ["0", "`0` is not an issue number"],
    ["#0", "`#0` is not an issue number"],
    ["# 17", "`#` is not an issue number"],
    ["17 abc", "`abc` is not an issue number"],
    ["##17", "`##17` is not an issue number"],
    ["owner/repo#17", "`owner/repo#17` is not an issue number"],
    ["4294967296", "`4294967296` is not an issue number"],
  ])("rejects /locus order %j: %s", (argument, reason) => {
    expect(error(`/locus order ${argument}`)).toStrictEqual({
      kind: "error",
      verb: "order",
      message:
        "`/locus order` needs the issue numbers of the sprint in the new order, " +
        `e.g. \`/locus order 17 15 16\`; here ${reason}.`,
    });
  });

  it("reports only the first command's error, even when a later line is valid", () => {
    expect(error("/locus itterate\n/locus iterate").message).toContain("`/locus itterate`");
  });
});

describe("parseCommand: several command lines", () => {
  it("runs the first and notes the others", () => {
    expect(parseCommand("/locus run\nsome text\n/locus review\n\n  /LOCUS  status  ")).toStrictEqual({
      kind: "command",
      command: { name: "run" },
      notes: [
        "Only the first /locus command is run; ignored: /locus review",
        "Only the first /locus command is run; ignored: /LOCUS status",
      ],
    });
  });

  it("notes invalid later lines too", () => {
    expect(parseCommand("/locus status\n/locus bogus")).toStrictEqual({
      kind: "command",
      command: { name: "status" },
      notes: ["Only the first /locus command is run; ignored: /locus bogus"],
    });
  });

  it("does not count hidden /locus lines as ignored commands", () => {
    expect(parseCommand("/locus run\n> /locus review\n`/locus status`")).toStrictEqual({
      kind: "command",
      command: { name: "run" },
      notes: [],
    });
  });

  it("lists at most five ignored lines and counts the rest", () => {
    const listed = Array.from(
      { length: 5 },
      () => "Only the first /locus command is run; ignored: /locus help",
    );
    const repeated = (count: number): string => Array.from({ length: count }, () => "/locus help").join("\n");
    expect(parseCommand(repeated(6))).toStrictEqual({
      kind: "command",
      command: { name: "help" },
      notes: listed,
    });
    expect(parseCommand(repeated(7))).toStrictEqual({
      kind: "command",
      command: { name: "help" },
      notes: [...listed, "Only the first /locus command is run; 1 more /locus line was ignored"],
    });
    expect(parseCommand(repeated(9))).toStrictEqual({
      kind: "command",
      command: { name: "help" },
      notes: [...listed, "Only the first /locus command is run; 3 more /locus lines were ignored"],
    });
  });

  it("shows an ignored line without its indentation", () => {
    expect(parseCommand(`/locus run\ntext\n${" ".repeat(300)}/locus   review`)).toStrictEqual({
      kind: "command",
      command: { name: "run" },
      notes: ["Only the first /locus command is run; ignored: /locus review"],
    });
  });

  it("shortens a long ignored line", () => {
    const result = parseCommand(`/locus run\n/locus iterate ${"word ".repeat(100)}`);
    if (result.kind !== "command") throw new Error("expected a command");
    const [note] = result.notes;
    expect(note?.endsWith("…")).toBe(true);
    expect(note?.length).toBeLessThan(120);
  });
});

describe("parseCommand: model=<id>", () => {
  it("takes a model for run and iterate, keeping the iterate note", () => {
    expect(command("/locus run model=claude-opus-4-5")).toStrictEqual({
      name: "run",
      model: "claude-opus-4-5",
    });
    expect(command("/locus run MODEL=us.anthropic.claude-opus-4-5-v1:0")).toStrictEqual({
      name: "run",
      model: "us.anthropic.claude-opus-4-5-v1:0",
    });
    expect(command("/locus iterate model=claude-opus-4-5   keep the API")).toStrictEqual({
      name: "iterate",
      note: "keep the API",
      model: "claude-opus-4-5",
    });
    expect(command("/locus iterate model=claude-opus-4-5")).toStrictEqual({
      name: "iterate",
      note: "",
      model: "claude-opus-4-5",
    });
  });

  it("reads model= only as the first argument of iterate", () => {
    expect(command("/locus iterate use model=x here")).toStrictEqual({
      name: "iterate",
      note: "use model=x here",
    });
  });

  it.each([
    ["/locus run model=", "run", "`model=` needs a model id"],
    ["/locus run model=$(rm)", "run", "`$(rm)` is not a model id"],
    ["/locus run model=-opus", "run", "`-opus` is not a model id"],
    [`/locus run model=${"a".repeat(101)}`, "run", "is not a model id"],
    ["/locus iterate model= fix it", "iterate", "`model=` needs a model id"],
    ["/locus iterate model=a`b note", "iterate", "is not a model id"],
  ] as const)("refuses a malformed model in %s", (body, verb, reason) => {
    const refused = error(body);
    expect(refused.verb).toBe(verb);
    expect(refused.message).toContain(reason);
  });

  it("refuses other text after /locus run, with or without a model", () => {
    expect(error("/locus run now please")).toStrictEqual({
      kind: "error",
      verb: "run",
      message:
        "`/locus run` takes only `model=<id>`, but it is followed by `now please`. " +
        "Write `/locus run` on a line of its own; other text can go on the next line.",
    });
    expect(error("/locus run model=claude-opus-4-5 now").message).toContain("followed by `now`");
  });
});
