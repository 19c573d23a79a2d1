// The replay benchmark's pure pieces: the scripted task it times and the figure it reports. The
// timings themselves are measured by `npm run bench -- sandbox`, never asserted here.
import { describe, expect, it } from "vitest";
import { modelTimeForGoal, replayFigure } from "../../bench/sandbox/replay-figure.ts";
import { REPLAY_FILES, replayScript } from "../../bench/sandbox/replay-script.ts";

type Call = { name: string; input: Record<string, unknown> };

function calls(): Call[][] {
  return replayScript().map((turn) =>
    turn.content.flatMap((block) =>
      block.type === "tool_use" ? [{ name: block.name, input: block.input }] : [],
    ),
  );
}

function commands(): string[] {
  return calls()
    .flat()
    .filter((c) => c.name === "run_shell")
    .map((c) => String(c.input["command"]));
}

describe("the 20-turn replay script", () => {
  it("has 20 turns, each with a tool call, and finishes on the last", () => {
    const turns = calls();
    expect(turns).toHaveLength(20);
    expect(turns.every((t) => t.length > 0)).toBe(true);
    expect(turns.at(-1)?.map((c) => c.name)).toEqual(["finish"]);
    expect(
      turns
        .slice(0, -1)
        .flat()
        .some((c) => c.name === "finish"),
    ).toBe(false);
  });

  it("runs `true`, `node -e` and `node --test` through run_shell, and reads and edits files", () => {
    const run = commands();
    expect(run).toContain("true");
    expect(run.filter((c) => c.startsWith("node -e "))).toHaveLength(2);
    expect(run.filter((c) => c === "node --test")).toHaveLength(3);
    const names = new Set(
      calls()
        .flat()
        .map((c) => c.name),
    );
    for (const name of ["list_files", "read_file", "search_text", "edit_file", "write_file"])
      expect(names).toContain(name);
  });

  it("edits only text that is there, exactly once, when the edits apply in order", () => {
    const files = new Map(Object.entries(REPLAY_FILES));
    for (const call of calls().flat()) {
      const path = String(call.input["path"]);
      if (call.name === "write_file") files.set(path, String(call.input["content"]));
      if (call.name === "read_file") expect(files.has(path)).toBe(true);
      if (call.name !== "edit_file") continue;
      const text = files.get(path) ?? "";
      const old = String(call.input["old_text"]);
      expect(text.split(old)).toHaveLength(2);
      files.set(path, text.replace(old, String(call.input["new_text"])));
    }
    expect(files.get("src/add.js")).toContain("export function sum(values)");
  });

  it("gives a fresh copy each time, so one replay cannot change the next", () => {
    expect(replayScript()).not.toBe(replayScript());
    expect(replayScript()).toEqual(replayScript());
  });
});

describe("the replay figure", () => {
  it("compares medians from the same run against ≤ 1.1×", () => {
    const figure = replayFigure("sandbox-replay", 20, [1100, 1000, 1200], [1000, 900, 1100]);
    expect(figure.value.median).toBe(1100);
    expect(figure.baseline?.value.median).toBe(1000);
    expect(figure.ratio).toBeCloseTo(1.1);
    expect(figure.goals[0]?.met).toBe(true);
    expect(figure.name).toContain("p95 1200 ms vs 1100 ms off");
  });

  it("reports a miss with its margin", () => {
    const figure = replayFigure("sandbox-replay", 20, [1500], [1000]);
    expect(figure.goals[0]).toMatchObject({ met: false, margin: "1.50 vs 1.10: 1.36× over" });
  });

  it("says how slow a model turn must be for the goal to hold", () => {
    // (1500 + 20 m) / (1000 + 20 m) = 1.1  ⇔  m = (500 / 0.1 − 1000) / 20 = 200 ms.
    expect(modelTimeForGoal(1500, 1000, 20)).toBeCloseTo(200);
    expect((1500 + 20 * 200) / (1000 + 20 * 200)).toBeCloseTo(1.1);
    expect(modelTimeForGoal(1050, 1000, 20)).toBe(0);
    expect(replayFigure("b", 20, [1500], [1000]).note).toContain("≥ 200 ms a turn");
  });
});
