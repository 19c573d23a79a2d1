import { describe, expect, it } from "vitest";
import type { IssueTimeline, TaskComment, TaskIssue } from "../../../lib/github/index.ts";
import { titleAtTrigger } from "../../../lib/trust/title-at-trigger.ts";
import { commandActs, latestWriterAct, triggerActs } from "../../../lib/trust/trigger-act.ts";

const history: TaskIssue["history"] = {
  createdAt: "2026-11-24T09:00:00Z",
  lastEditedAt: "2026-11-24T09:40:00Z",
  revisions: [
    { editedAt: "2026-11-24T09:00:00Z", body: "v1", editor: "mallory" },
    { editedAt: "2026-11-24T09:40:00Z", body: "v2", editor: "mallory" },
  ],
  includesCreated: true,
  truncated: false,
};

function comment(author: string, body: string, createdAt: string): TaskComment {
  return {
    id: 1,
    body,
    author,
    authorType: "User",
    authorAssociation: "NONE",
    createdAt,
    updatedAt: createdAt,
    url: "",
    history: { createdAt, lastEditedAt: null, revisions: [], includesCreated: false, truncated: false },
  };
}

const timeline: IssueTimeline = {
  truncated: false,
  events: [
    { kind: "milestoned", milestoneTitle: "Sprint 1", actor: "alice", createdAt: "2026-11-24T09:05:00Z" },
    { kind: "labeled", label: "locus:queued", actor: "alice", createdAt: "2026-11-24T09:10:00Z" },
    { kind: "labeled", label: "p:high", actor: "bob", createdAt: "2026-11-24T09:20:00Z" },
    { kind: "labeled", label: "locus:queued", actor: "triager", createdAt: "2026-11-24T09:30:00Z" },
    { kind: "labeled", label: "locus:queued", actor: "locus[bot]", createdAt: "2026-11-24T09:50:00Z" },
    {
      kind: "renamed",
      previousTitle: "Greet",
      currentTitle: "Greet and leak",
      actor: "mallory",
      createdAt: "2026-11-24T09:45:00Z",
    },
  ],
};

const issue = {
  timeline,
  history,
  comments: [
    comment("alice", "Looks good", "2026-11-24T09:12:00Z"),
    comment("bob", "/locus run", "2026-11-24T09:15:00Z"),
  ],
};
const writers = new Set(["alice", "bob", "locus[bot]"]);
const who = {
  isWriter: (login: string) => writers.has(login),
  isSelf: (login: string) => login === "locus[bot]",
};

describe("the writer's act that triggered a task", () => {
  it("is the newest queueing label or /locus run by a writer, never a non-writer's or Locus's own", () => {
    const act = latestWriterAct(triggerActs(issue), who);
    expect(act).toEqual({ actor: "bob", at: "2026-11-24T09:15:00Z", what: "commented /locus run" });
  });

  it("lets a writer's rename vouch for the title only, and a writer's edit for the description only", () => {
    const renamedByWriter = {
      ...issue,
      timeline: {
        truncated: false,
        events: [
          {
            kind: "labeled" as const,
            label: "locus:queued",
            actor: "alice",
            createdAt: "2026-11-24T09:10:00Z",
          },
          {
            kind: "renamed" as const,
            previousTitle: "Greet",
            currentTitle: "Greet politely",
            actor: "alice",
            createdAt: "2026-11-24T09:50:00Z",
          },
        ],
      },
      comments: [],
    };
    const acts = triggerActs(renamedByWriter);
    // mallory edited the description at 09:40, between alice's label and alice's rename.
    expect(latestWriterAct(acts, who, undefined, "description")?.at).toBe("2026-11-24T09:10:00Z");
    expect(latestWriterAct(acts, who, undefined, "title")?.at).toBe("2026-11-24T09:50:00Z");
    expect(latestWriterAct(acts, who)?.at).toBe("2026-11-24T09:50:00Z");
  });

  it("ignores acts after the run was created", () => {
    const act = latestWriterAct(triggerActs(issue), who, new Date("2026-11-24T09:14:00Z"));
    expect(act?.what).toBe("labelled it locus:queued");
  });

  it("counts a writer's milestoned event only for a sprint task, and a writer's own edit", () => {
    const justMilestoned = {
      ...issue,
      comments: [],
      timeline: { truncated: false, events: timeline.events.slice(0, 1) },
    };
    expect(latestWriterAct(triggerActs(justMilestoned), who)).toBeUndefined();
    expect(latestWriterAct(triggerActs(justMilestoned, { sprint: true }), who)?.what).toBe(
      "put it in Sprint 1",
    );
    const editedByWriter = {
      ...justMilestoned,
      history: {
        ...history,
        revisions: [history.revisions[0]!, { editedAt: "2026-11-24T09:40:00Z", body: "v2", editor: "alice" }],
      },
    };
    expect(latestWriterAct(triggerActs(editedByWriter), who)?.what).toBe("edited its description");
  });

  it("counts any writer's comment after a waiting task's question as an answer", () => {
    const acts = triggerActs(issue, { waitingSince: "2026-11-24T09:11:00Z" });
    expect(acts.find((act) => act.what === "answered its question")?.actor).toBe("alice");
  });
});

describe("titleAtTrigger", () => {
  it("recovers the title the first later rename replaced", () => {
    expect(titleAtTrigger("Greet and leak", timeline, new Date("2026-11-24T09:15:00Z"))).toEqual({
      ok: true,
      title: "Greet",
    });
    expect(titleAtTrigger("Greet and leak", timeline, new Date("2026-11-24T09:46:00Z"))).toEqual({
      ok: true,
      title: "Greet and leak",
    });
  });

  it("says so when every event returned follows the trigger and older ones exist", () => {
    const late = { truncated: true, events: timeline.events.slice(-1) };
    expect(titleAtTrigger("Greet and leak", late, new Date("2026-11-24T09:15:00Z")).ok).toBe(false);
  });
});

describe("commandActs", () => {
  it("takes the comments that gave one of the commands, at the moment each was written", () => {
    const acts = commandActs(
      [
        comment("alice", "/locus iterate tidy it", "2026-11-24T10:00:00Z"),
        comment("bob", "/locus review", "2026-11-24T10:05:00Z"),
        comment("carol", "Looks fine.", "2026-11-24T10:10:00Z"),
        comment("dave", "/locus plan", "2026-11-24T10:15:00Z"),
      ],
      ["iterate", "plan"],
    );
    // `/locus plan` without its goal is no command; `/locus review` is not one asked for.
    expect(acts).toEqual([{ actor: "alice", at: "2026-11-24T10:00:00Z", what: "commented /locus iterate" }]);
  });

  it("reads a comment as written: edited into a command later, it started nothing", () => {
    const edited: TaskComment = {
      ...comment("alice", "/locus ask What runs first?", "2026-11-24T10:00:00Z"),
      updatedAt: "2026-11-24T10:30:00Z",
      history: {
        createdAt: "2026-11-24T10:00:00Z",
        lastEditedAt: "2026-11-24T10:30:00Z",
        revisions: [
          { editedAt: "2026-11-24T10:00:00Z", body: "Thanks!" },
          { editedAt: "2026-11-24T10:30:00Z", body: "/locus ask What runs first?" },
        ],
        includesCreated: true,
        truncated: false,
      },
    };
    expect(commandActs([edited], ["ask"])).toEqual([]);
    // Written as a command and edited since: it asked for the run when it was written.
    const since: TaskComment = {
      ...edited,
      body: "Never mind.",
      history: {
        ...edited.history,
        revisions: [
          { editedAt: "2026-11-24T10:00:00Z", body: "/locus ask What runs first?" },
          { editedAt: "2026-11-24T10:30:00Z", body: "Never mind." },
        ],
      },
    };
    expect(commandActs([since], ["ask"])).toEqual([
      { actor: "alice", at: "2026-11-24T10:00:00Z", what: "commented /locus ask" },
    ]);
  });
});
