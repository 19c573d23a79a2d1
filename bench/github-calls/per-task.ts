/** The figures of one unit of work's calls: per task, against its budget (index.ts, budget-cases.ts). */
import { atMost, exact } from "../lib/stats.ts";
import type { Figure } from "../lib/types.ts";
import type { BudgetCases } from "./budget-cases.ts";
import type { Tally } from "./tally.ts";

export const BENCH = "github-calls";

export function describe(t: Tally, points: string): string {
  const identity =
    t.identity > 0
      ? `; not counted: ${t.identity} bot-id lookup (GET /users/{bot}, key fallback, once a run)`
      : "";
  return `${t.reads - t.identity} reads, ${t.writes} writes (${t.creating} creating), ${t.duplicateReads} repeated reads, ${t.notModified} × 304; GraphQL points ${points}${identity}`;
}

export function perTask(
  name: string,
  t: Tally,
  tasks: number,
  budget: number,
  points: string,
  extra: Figure["goals"] = [],
): Figure {
  const total = (t.total - t.identity) / tasks;
  return {
    benchmark: BENCH,
    name,
    unit: "calls",
    value: exact(total),
    goals: [
      atMost(`≤ ${budget} calls`, total, budget),
      atMost("≤ 4 content-creating writes", t.creating / tasks, 4),
      atMost("no resource read twice", t.duplicateReads, 0),
      ...extra,
    ],
    note: describe(t, points),
  };
}

/** How many requests created labels (once for a repository, label-creation.ts). */
function labelCreations(t: Tally): number {
  return t.calls.filter((line) => line.includes(" CreateLabels ")).length;
}

export function budgetFigures(cases: BudgetCases): Figure[] {
  const first = cases.unlabelledFirst;
  const created = labelCreations(first);
  return [
    {
      ...perTask(
        "standalone task, the first in a repository without Locus's labels",
        { ...first, total: first.total - created },
        1,
        5,
        "—",
        [atMost("labels created in ≤ 1 request, once for the repository", created, 1)],
      ),
      note: `besides ${created} CreateLabels request (every label a task sets, once for the repository); ${describe(first, "—")}`,
    },
    perTask("standalone task, a later one in that repository", cases.unlabelledLater, 1, 5, "—", [
      atMost("no label created again", labelCreations(cases.unlabelledLater), 0),
    ]),
    perTask(
      "standalone task a person triggered (the app checked them for this run)",
      cases.personTriggered,
      1,
      5,
      "—",
      [
        atMost(
          "no permission lookup",
          cases.personTriggered.calls.filter((line) => line.includes("/permission")).length,
          0,
        ),
      ],
    ),
    perTask("standalone task a person dispatched by hand", cases.handDispatched, 1, 5, "—", [
      atMost(
        "no permission lookup",
        cases.handDispatched.calls.filter((line) => line.includes("/permission")).length,
        0,
      ),
    ]),
  ];
}
