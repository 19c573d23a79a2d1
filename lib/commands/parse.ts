import { isCommandName } from "./command.ts";
import type { CommandName, LocusCommand, ParseResult } from "./command.ts";
import { findCommandLines, splitLines } from "./command-lines.ts";
import { inlineCode } from "./inline-code.ts";
import { takeModelOption } from "./model-option.ts";
import { parseIssueNumbers, parsePositions } from "./numbers.ts";
import { suggestCommand } from "./suggest.ts";
import { commandUsage } from "./usage.ts";

/**
 * Reads the `/locus` command of a comment body.
 *
 * A command is a line whose first token is `/locus` (any case) and whose
 * next token is the verb (any case); see `command-lines.ts` for the Markdown
 * contexts (code, quotes, HTML comments) that hide a line. Only the first
 * command line counts; later ones are reported in `notes`, or, when the
 * first one is wrong, not at all (the error is what the user must fix).
 *
 * Arguments: `run` takes an optional `model=<id>`; `iterate` takes an
 * optional `model=<id>` and then the rest of its line as an optional note;
 * `plan`, `ask` and `answer` take the rest of the line and the lines below it, up to
 * the next command line; `approve` and `order` take number lists;
 * `review`, `fix-ci`, `rebase`, `status`, `help` and `cancel` take nothing, and text after them
 * on the same line is an error rather than silently dropped, since it is
 * most often an argument the user expects to matter. Text on the lines
 * below a command other than `plan`, `ask` and `answer` is ordinary prose.
 *
 * Never throws, and its work is linear in the body's length.
 */
export function parseCommand(body: string): ParseResult {
  const lines = splitLines(body);
  const commandLines = findCommandLines(lines);
  const [first, second] = commandLines;
  if (first === undefined) return { kind: "none" };
  const line = lines[first] ?? "";
  const following = lines.slice(first + 1, second ?? lines.length);
  const parsed = parseCommandLine(line.trimStart().slice("/locus".length).trimStart(), following);
  if ("message" in parsed) return { kind: "error", ...parsed };
  const ignored = commandLines.slice(1).map((index) => lines[index] ?? "");
  return { kind: "command", command: parsed, notes: ignoredNotes(ignored) };
}

type LineError = { readonly verb?: CommandName; readonly message: string };

/**
 * `text` is the command line after `/locus` and the whitespace after it;
 * `following` the lines up to the next command line.
 */
function parseCommandLine(text: string, following: readonly string[]): LocusCommand | LineError {
  if (text === "") {
    return { message: `\`/locus\` needs a command:\n${Object.values(commandUsage).join("\n")}` };
  }
  const verbEnd = text.search(/\s/);
  const word = verbEnd === -1 ? text : text.slice(0, verbEnd);
  // Multi-line arguments keep the first line's trailing whitespace (a Markdown line break).
  const rest = text.slice(word.length);
  const argument = rest.trim();
  const verb = word.toLowerCase();
  if (!isCommandName(verb)) return { message: unknownVerbMessage(word) };
  const fail = (message: string): LineError => ({ verb, message });
  switch (verb) {
    case "run": {
      const option = takeModelOption(argument);
      if (!option.ok) return fail(`\`/locus run\` takes only \`model=<id>\`; here ${option.reason}.`);
      if (option.rest !== "") {
        return fail(
          `\`/locus run\` takes only \`model=<id>\`, but it is followed by ${inlineCode(option.rest)}. ` +
            "Write `/locus run` on a line of its own; other text can go on the next line.",
        );
      }
      return option.model === undefined ? { name: "run" } : { name: "run", model: option.model };
    }
    case "review":
    case "fix-ci":
    case "rebase":
    case "status":
    case "help":
    case "cancel":
      if (argument !== "") {
        return fail(
          `\`/locus ${verb}\` takes no arguments, but it is followed by ${inlineCode(argument)}. ` +
            `Write \`/locus ${verb}\` on a line of its own; other text can go on the next line.`,
        );
      }
      return { name: verb };
    case "iterate": {
      const option = takeModelOption(argument);
      if (!option.ok) return fail(`\`/locus iterate [model=<id>] [note]\`: ${option.reason}.`);
      const note = option.rest;
      return option.model === undefined
        ? { name: "iterate", note }
        : { name: "iterate", note, model: option.model };
    }
    case "plan": {
      const goal = [rest, ...following].join("\n").trim();
      if (goal === "") {
        return fail(
          "`/locus plan` needs a goal, e.g. `/locus plan Add sign-in with GitHub`; " +
            "the goal may continue on the following lines.",
        );
      }
      return { name: "plan", goal };
    }
    case "ask": {
      const question = [rest, ...following].join("\n").trim();
      if (question === "") {
        return fail("`/locus ask` needs a question, e.g. `/locus ask Where are webhooks verified?`");
      }
      return { name: "ask", question };
    }
    case "answer": {
      const answer = [rest, ...following].join("\n").trim();
      if (answer === "") {
        return fail(
          "`/locus answer` needs the answer, e.g. `/locus answer Use the ISO date format`; it may continue on the following lines.",
        );
      }
      return { name: "answer", text: answer };
    }
    case "approve": {
      if (argument === "") return { name: "approve" };
      const positions = parsePositions(argument);
      if (!positions.ok) {
        return fail(
          "`/locus approve` takes nothing, to create the plan's issues in the plan's order, or every " +
            "item number of the plan once, in the order to create them, e.g. `/locus approve 2,1,3`; " +
            `here ${positions.reason}.`,
        );
      }
      return { name: "approve", sequence: positions.numbers };
    }
    case "order": {
      const issues = parseIssueNumbers(argument);
      if (!issues.ok) {
        return fail(
          "`/locus order` needs the issue numbers of the sprint in the new order, " +
            `e.g. \`/locus order 17 15 16\`; here ${issues.reason}.`,
        );
      }
      return { name: "order", issues: issues.numbers };
    }
  }
}

function unknownVerbMessage(word: string): string {
  const unknown = `Unknown command ${inlineCode(`/locus ${word}`)}.`;
  const suggestion = suggestCommand(word);
  if (suggestion !== undefined) return `${unknown} Did you mean \`/locus ${suggestion}\`?`;
  return `${unknown} \`/locus help\` lists the commands.`;
}

// A comment full of command lines must not produce a reply as long as itself.
const maxIgnoredListed = 5;

function ignoredNotes(ignored: readonly string[]): string[] {
  const notes = ignored
    .slice(0, maxIgnoredListed)
    .map((line) => `Only the first /locus command is run; ignored: ${summarize(line)}`);
  const unlisted = ignored.length - maxIgnoredListed;
  if (unlisted > 0) {
    notes.push(
      `Only the first /locus command is run; ${unlisted} more /locus ${unlisted === 1 ? "line was" : "lines were"} ignored`,
    );
  }
  return notes;
}

function summarize(line: string): string {
  const flat = line.trimStart().slice(0, 200).trimEnd().replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
